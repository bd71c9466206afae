// Signing page: talks to its own server (same origin) and tells the parent
// page what happened with postMessage, only to parentOrigin when it is known.
(function () {
  'use strict';

  var cfg = JSON.parse(document.getElementById('sign-config').textContent);
  var T = cfg.t || {};
  var framed = window.parent !== window;

  function post(type, extra) {
    if (!framed) return;
    var msg = { source: cfg.source, type: type };
    for (var k in extra || {}) msg[k] = extra[k];
    window.parent.postMessage(msg, cfg.parentOrigin || '*');
  }

  function fmt(key, vars) {
    return String(T[key] || '').replace(/\{(\w+)\}/g, function (m, name) {
      return vars && vars[name] !== undefined ? String(vars[name]) : m;
    });
  }

  function $(sel, root) { return (root || document).querySelector(sel); }

  // The parent sizes the iframe from RESIZE; report every change of height.
  var lastHeight = 0;
  function reportHeight() {
    var h = Math.ceil(document.documentElement.getBoundingClientRect().height);
    if (h > 0 && h !== lastHeight) {
      lastHeight = h;
      post('RESIZE', { height: h });
    }
  }

  if (cfg.error) post('ERROR', { message: cfg.error });
  else post('READY', { method: cfg.method });
  if (window.ResizeObserver) new ResizeObserver(reportHeight).observe(document.documentElement);
  else window.addEventListener('resize', reportHeight);
  reportHeight();
  if (cfg.error) return;

  var panels = document.querySelectorAll('[data-panel]');
  function panel(name) { return $('[data-panel="' + name + '"]'); }
  function show(name, focus) {
    panels.forEach(function (p) { p.hidden = p.getAttribute('data-panel') !== name; });
    if (focus) focus.focus({ preventScroll: true });
  }
  function say(name, text, kind) {
    var el = $('[data-msg]', panel(name));
    if (!el) return;
    el.textContent = text || '';
    el.className = 'msg' + (kind ? ' ' + kind : '');
    el.setAttribute('role', kind === 'error' ? 'alert' : 'status');
  }
  function busy(btn, on) {
    document.querySelectorAll('[data-action]').forEach(function (b) { b.disabled = on; });
    if (btn) btn.setAttribute('aria-busy', on ? 'true' : 'false');
    if (!on) resendTick();
  }

  var base = location.pathname.replace(/\/+$/, '');
  function api(path, body) {
    return fetch(base + '/' + path, {
      method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body || {}),
      credentials: 'omit', cache: 'no-store'
    }).then(function (res) {
      return res.json().catch(function () { return null; }).then(function (data) {
        return {
          ok: res.ok, status: res.status, data: data, reason: res.headers.get('X-Sign-Reason') || '',
          left: res.headers.get('X-Attempts-Left'), retry: parseInt(res.headers.get('Retry-After') || '0', 10)
        };
      });
    }, function () { return { ok: false, status: 0, reason: 'network' }; });
  }

  var reasonText = {
    'wrong-code': function (r) { return fmt('err.wrongCode', { n: r.left }); },
    'code-format': function () { return fmt('err.codeFormat'); },
    'code-expired': function () { return fmt('err.codeExpired'); },
    'no-code': function () { return fmt('err.noCode'); },
    'sends-exhausted': function () { return fmt('err.sendsExhausted'); },
    'resend-wait': function (r) { return fmt('err.resendWait', { seconds: r.retry }); },
    'rate-limited': function (r) { return fmt('err.rateLimited', { seconds: r.retry }); },
    'unavailable': function () { return fmt('err.unavailable'); },
    'network': function () { return fmt('err.network'); }
  };
  function errorText(r) { return (reasonText[r.reason] || function () { return fmt('err.generic'); })(r); }

  // A 403 or 404 means the session can no longer be used: say so and tell the parent.
  function closedBy(r) {
    if (r.status !== 403 && r.status !== 404) return false;
    var msg = r.reason === 'session-expired' ? 'session expired' : r.status === 404 ? 'session not found' : 'session closed';
    var key = msg === 'session expired' ? 'expired' : msg === 'session not found' ? 'notFound' : 'closed';
    $('[data-closed-title]').textContent = fmt(key + 'Title');
    $('[data-closed-text]').textContent = fmt(key + 'Text');
    stopResend();
    show('closed', $('[data-closed-title]'));
    post('ERROR', { message: msg });
    return true;
  }

  function setStatus(contractStatus, partyStatus) {
    var badge = $('[data-contract-status]');
    if (badge && contractStatus) {
      badge.textContent = fmt('status.' + contractStatus);
      badge.className = 'badge badge-' + contractStatus.toLowerCase();
    }
    var you = $('[data-you-status]');
    if (you && partyStatus) {
      you.textContent = fmt('party.' + partyStatus);
      you.className = 'party-status st-' + partyStatus.toLowerCase();
    }
  }

  function finish(kind, data) {
    var title = $('[data-done-title]');
    title.textContent = fmt(kind + 'Title');
    $('[data-done-text]').textContent = kind === 'signed' && data.contractStatus === 'ACTIVE' ? fmt('activeText') : fmt(kind + 'Text');
    var ok = kind === 'signed';
    $('[data-done-icon]').className = 'state-icon ' + (ok ? 'icon-ok' : 'icon-bad');
    $('[data-icon="ok"]').toggleAttribute('hidden', !ok); // SVG elements have no .hidden
    $('[data-icon="bad"]').toggleAttribute('hidden', ok);
    setStatus(data.contractStatus, data.partyStatus);
    stopResend();
    // Continue (to redirectUrl) follows a signature only.
    var next = $('[data-action="continue"]');
    if (next) next.parentNode.hidden = !ok;
    show('done', ok && next ? next : title);
  }

  // Resend countdown, computed from the server's relative delays.
  var resendAt = 0, sendsLeft = 1, timer = 0;
  function stopResend() { clearInterval(timer); timer = 0; }
  function resendTick() {
    var btn = $('[data-action="resend"]'), hint = $('[data-code-hint]');
    var left = Math.ceil((resendAt - Date.now()) / 1000);
    btn.hidden = sendsLeft <= 0;
    btn.disabled = left > 0 || sendsLeft <= 0;
    hint.textContent = left > 0 && sendsLeft > 0 ? fmt('resendIn', { seconds: left }) : '';
    if (left <= 0) stopResend();
  }
  function openCode(info, focus) {
    if (info.phone) $('[data-code-sent]').textContent = fmt('codeSent', { phone: info.phone });
    resendAt = Date.now() + (info.resendIn || 0) * 1000;
    if (typeof info.sendsLeft === 'number') sendsLeft = info.sendsLeft;
    stopResend();
    timer = setInterval(resendTick, 1000);
    resendTick();
    show('code', focus === false ? null : $('#sms-code'));
  }

  function sendCode(from, btn) {
    say(from, fmt('sending'));
    busy(btn, true);
    return api('code').then(function (r) {
      busy(btn, false);
      if (r.ok) {
        if (from !== 'code') say(from, '');
        openCode(r.data);
        say('code', from === 'code' ? fmt('codeResent') : '', 'info');
        return;
      }
      if (closedBy(r)) return;
      if (r.reason === 'resend-wait') {
        openCode({ resendIn: r.retry });
        say('code', errorText(r), 'error');
        return;
      }
      if (r.reason === 'sends-exhausted') sendsLeft = 0;
      say(from, errorText(r), 'error');
    });
  }

  var signBtn = $('[data-action="sign"]');
  if (signBtn) signBtn.addEventListener('click', function () {
    if (cfg.code) { var c = cfg.code; cfg.code = null; openCode(c); return; }
    sendCode('review', signBtn);
  });
  $('[data-action="resend"]').addEventListener('click', function (e) { sendCode('code', e.currentTarget); });

  var input = $('#sms-code');
  input.addEventListener('input', function () {
    var digits = input.value.replace(/\D/g, '').slice(0, 5);
    if (digits !== input.value) input.value = digits;
    input.removeAttribute('aria-invalid');
  });
  panel('code').addEventListener('submit', function (e) {
    e.preventDefault();
    var code = input.value.replace(/\D/g, '');
    if (code.length !== 5) {
      input.setAttribute('aria-invalid', 'true');
      say('code', fmt('err.codeFormat'), 'error');
      input.focus();
      return;
    }
    var btn = $('[data-action="confirm-code"]');
    say('code', fmt('checking'));
    busy(btn, true);
    api('confirm', { code: code }).then(function (r) {
      busy(btn, false);
      if (r.ok) {
        finish('signed', r.data);
        post('SIGNED', { sessionId: r.data.sessionId, contractId: r.data.contractId });
        return;
      }
      if (closedBy(r)) return;
      input.setAttribute('aria-invalid', 'true');
      say('code', errorText(r), 'error');
      input.select();
    });
  });

  document.querySelectorAll('[data-action="reject"]').forEach(function (b) {
    b.addEventListener('click', function () { say('reject', ''); show('reject', $('[data-action="back"]')); });
  });
  $('[data-action="back"]').addEventListener('click', function () { show('review', $('[data-action="reject"]')); });
  $('[data-action="confirm-reject"]').addEventListener('click', function (e) {
    var btn = e.currentTarget;
    busy(btn, true);
    api('reject').then(function (r) {
      busy(btn, false);
      if (r.ok) {
        finish(r.data.contractStatus === 'CANCELLED' ? 'cancelled' : 'rejected', r.data);
        post('REJECTED');
        return;
      }
      if (closedBy(r)) return;
      say('reject', errorText(r), 'error');
    });
  });

  // Continue opens redirectUrl in the top window: a navigation the user's
  // click allows from a cross-origin frame. If the host sandboxed the frame
  // without top navigation, a new tab opens instead.
  var cont = $('[data-action="continue"]');
  if (cont) cont.addEventListener('click', function () {
    var w = null;
    try { w = window.open(cfg.redirectUrl, '_top'); } catch (err) { w = null; }
    if (!w) window.open(cfg.redirectUrl, '_blank', 'noopener');
  });
})();
