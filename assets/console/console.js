// Console: the few things a form cannot do by itself. Everything works
// without it; with it, secrets copy in one press, and the owner and
// credential forms show only the fields that apply.
(function () {
  'use strict';

  // Copy buttons: shown only where the clipboard can be written.
  var said = document.querySelector('[data-copied]');
  document.querySelectorAll('[data-copy]').forEach(function (btn) {
    if (!navigator.clipboard) return;
    btn.hidden = false;
    btn.addEventListener('click', function () {
      var input = document.getElementById(btn.getAttribute('data-copy'));
      navigator.clipboard.writeText(input.value).then(function () {
        if (said) said.textContent = btn.getAttribute('data-done') || '✓ ' + input.labels[0].textContent;
      }, function () { input.select(); });
    });
  });

  // Owner form: a company has a legal name, a person first and last names.
  var type = document.querySelector('[data-owner-form] #type');
  if (type) {
    var apply = function () {
      document.querySelectorAll('[data-for]').forEach(function (f) {
        f.hidden = f.getAttribute('data-for') !== type.value;
      });
    };
    type.addEventListener('change', apply);
    apply();
  }

  // Credential form: the template list matters only without All templates.
  var all = document.querySelector('[data-all-templates]');
  if (all) {
    var sync = function () {
      document.querySelectorAll('[data-template] input').forEach(function (i) { i.disabled = all.checked; });
    };
    all.addEventListener('change', sync);
    sync();
  }
})();
