// Identity popup, back from the provider: tell the signing page that opened
// this window how the check ended, then close. The message goes to this
// window's own origin only, which is the signing page's.
(function () {
  'use strict';

  var msg = JSON.parse(document.getElementById('idp-result').textContent);
  // The address holds the used code and state: keep them out of the history.
  try { history.replaceState(null, '', location.pathname); } catch (e) { /* nothing to hide then */ }
  var opener = null;
  try { opener = window.opener; } catch (e) { opener = null; }
  if (!opener || opener.closed) return; // opened directly, or the provider cut the link: the page says what happened
  try {
    opener.postMessage(msg, location.origin);
  } catch (e) {
    return;
  }
  setTimeout(function () { window.close(); }, 150);
})();
