// Cabinet: logs a party in with its number and an SMS code, and signs,
// rejects or cancels a contract through the cabinet's JSON API. Every
// state-changing request carries the page's CSRF token.
(function () {
  'use strict';

  var P = window.ContractsPage('cabinet-config');
  var cfg = P.cfg, T = P.T, fmt = P.fmt, $ = P.$, $$ = P.$$, say = P.say, digits = P.digits;

  function api(path, body, method) {
    return P.request('/cabinet/api/' + path, { method: method || 'POST', body: body, csrf: cfg.csrf });
  }

  // A signing session that can no longer be used: Sign starts a new one.
  var closedReasons = ['session-closed', 'session-expired', 'session-not-found', 'identity-state'];
  function signingClosed(r) { return closedReasons.indexOf(r.reason) >= 0; }
  var reasonText = {
    'locked': function (r) { return fmt('err.locked', { minutes: Math.max(1, Math.ceil(r.retry / 60)) }); },
    'number-format': 'err.numberFormat', 'csrf': 'err.csrf', 'logged-out': 'err.loggedOut'
  };
  function errorText(r) {
    if (signingClosed(r)) return fmt('err.signingClosed', { sign: T.sign });
    return P.errorText(r, reasonText);
  }
  // A session that has ended sends the party back to the login page.
  function loggedOut(r) {
    if (r.status !== 401) return false;
    location.href = '/cabinet';
    return true;
  }

  var resend = null; // the countdown of the page's code form
  function busy(btn, on) {
    P.busy(btn, on);
    if (!on && resend) resend.tick();
  }

  var logout = $('[data-action="logout"]');
  if (logout) logout.addEventListener('click', function () {
    busy(logout, true);
    api('logout').then(function () { location.href = '/cabinet'; });
  });

  if (cfg.view === 'login') loginPage();
  if (cfg.view === 'contract') contractPage();

  function loginPage() {
    var form = $('[data-form="login"]'), number = $('#number'), code = $('#sms-code'), msg = $('[data-msg]', form);
    var sendBtn = $('[data-action="send-login"]'), loginBtn = $('[data-action="log-in"]');
    var resendBtn = $('[data-action="resend-login"]'), changeBtn = $('[data-action="change-number"]');
    var timer = resend = P.resender(resendBtn, $('[data-code-hint]'));
    var codeStep = false;
    digits(number, 14);
    digits(code, 5);

    function step(toCode) {
      codeStep = toCode;
      number.readOnly = toCode;
      $('[data-code-field]').hidden = !toCode;
      sendBtn.hidden = toCode;
      loginBtn.hidden = changeBtn.hidden = resendBtn.hidden = !toCode;
      if (!toCode) { timer.stop(); say(msg, ''); number.focus(); }
    }

    function sendCode(btn) {
      var n = number.value;
      if (!/^(\d{9}|\d{14})$/.test(n)) {
        number.setAttribute('aria-invalid', 'true');
        say(msg, fmt('err.numberFormat'), 'error');
        number.focus();
        return;
      }
      say(msg, fmt('sending'));
      busy(btn, true);
      api('login/code', { number: n }).then(function (r) {
        busy(btn, false);
        if (r.ok) {
          step(true);
          timer.start(r.data.resendIn, r.data.sendsLeft);
          say(msg, fmt('codeSentLogin', { minutes: Math.ceil(r.data.expiresIn / 60) }), 'info');
          code.value = '';
          code.focus();
          return;
        }
        if (r.reason === 'resend-wait' && codeStep) timer.start(r.retry);
        else timer.tick();
        say(msg, errorText(r), 'error');
      });
    }

    form.addEventListener('submit', function (e) {
      e.preventDefault();
      if (!codeStep) { sendCode(sendBtn); return; }
      var c = code.value;
      if (c.length !== 5) {
        code.setAttribute('aria-invalid', 'true');
        say(msg, fmt('err.codeFormat'), 'error');
        code.focus();
        return;
      }
      say(msg, fmt('loggingIn'));
      busy(loginBtn, true);
      api('login', { number: number.value, code: c }).then(function (r) {
        if (r.ok) { location.href = '/cabinet'; return; }
        busy(loginBtn, false);
        timer.tick();
        code.setAttribute('aria-invalid', 'true');
        say(msg, errorText(r), 'error');
        code.select();
      });
    });
    resendBtn.addEventListener('click', function () { sendCode(resendBtn); });
    changeBtn.addEventListener('click', function () { step(false); });
  }

  function contractPage() {
    var id = cfg.contractId, signing = null, poll = 0;
    var panel = P.panel, show = P.show;
    function msgOf(name) { return $('[data-msg]', panel(name)); }
    function back(text) {
      stopPoll();
      show('review', $('[data-action="sign"]') || $('[data-action]', panel('review')));
      say(msgOf('review'), text || '', text ? 'error' : '');
    }

    function finish(data) {
      stopPoll();
      if (resend) resend.stop();
      var st = data.contractStatus, kind = st === 'CANCELLED' ? 'cancelled' : st === 'REJECTED' ? 'rejected' : 'signed';
      show('done', P.done(kind, data));
    }
    // fail shows a refusal in the panel; a closed signing session is
    // forgotten, so that Sign starts a new one.
    function fail(name, r) {
      if (loggedOut(r)) return;
      if (signingClosed(r)) { signing = null; back(errorText(r)); return; }
      say(msgOf(name), errorText(r), 'error');
    }

    // open opens (once) a signing session for the party.
    function open() {
      if (signing) return Promise.resolve({ ok: true });
      return api('contracts/' + id + '/signing').then(function (r) {
        if (r.ok) signing = r.data;
        return r;
      });
    }

    // SMS code
    var code = $('#sms-code');
    resend = P.resender($('[data-action="resend"]'), $('[data-code-hint]'));
    digits(code, 5);
    function sendCode(from, btn) {
      say(msgOf(from), fmt('sending'));
      busy(btn, true);
      return open().then(function (r) {
        if (!r.ok) return r;
        return api('signing/code', { token: signing.token });
      }).then(function (r) {
        busy(btn, false);
        if (r.ok) {
          if (r.data.phone) $('[data-code-sent]').textContent = fmt('codeSent', { phone: r.data.phone });
          show('code', code);
          say(msgOf('code'), from === 'code' ? fmt('codeResent') : '', 'info');
          if (from !== 'code') say(msgOf(from), '');
          resend.start(r.data.resendIn, r.data.sendsLeft);
          return;
        }
        if (r.reason === 'resend-wait') resend.start(r.retry);
        else resend.tick();
        fail(from, r);
      });
    }
    panel('code').addEventListener('submit', function (e) {
      e.preventDefault();
      if (code.value.length !== 5) {
        code.setAttribute('aria-invalid', 'true');
        say(msgOf('code'), fmt('err.codeFormat'), 'error');
        code.focus();
        return;
      }
      var btn = $('[data-action="confirm-code"]');
      say(msgOf('code'), fmt('checking'));
      busy(btn, true);
      api('signing/confirm', { token: signing.token, code: code.value }).then(function (r) {
        busy(btn, false);
        resend.tick();
        if (r.ok) { resend.stop(); finish(r.data); return; }
        code.setAttribute('aria-invalid', 'true');
        fail('code', r);
        code.select();
      });
    });
    $('[data-action="resend"]').addEventListener('click', function (e) { sendCode('code', e.currentTarget); });

    // MY_ID, ABLE_ID and E_IMZO continue in another window; this page
    // watches the contract until the party's status changes.
    function stopPoll() { clearInterval(poll); poll = 0; }
    function watch(win) {
      stopPoll();
      poll = setInterval(function () {
        api('contracts/' + id, null, 'GET').then(function (r) {
          if (!poll) return;
          if (!r.ok) { if (!loggedOut(r)) say(msgOf('wait'), errorText(r), 'error'); return; }
          if (r.data.partyStatus !== 'PENDING' || r.data.contractStatus !== 'CREATED') { finish(r.data); return; }
          if (win.closed) { signing = null; back(fmt('waitClosed')); }
        });
      }, 1500);
    }
    function elsewhere(btn) {
      // The window opens inside the click, or pop-up blockers stop it.
      var win = window.open('', 'cabinet-signing', 'popup,width=560,height=760');
      if (!win) { say(msgOf('review'), fmt('err.popup'), 'error'); return; }
      busy(btn, true);
      var started = open().then(function (r) {
        if (!r.ok || cfg.flow === 'eimzo') return r;
        return api('signing/identity', { token: signing.token });
      });
      started.then(function (r) {
        busy(btn, false);
        if (!r.ok) { win.close(); signing = null; fail('review', r); return; }
        win.location.href = cfg.flow === 'eimzo' ? signing.url : r.data.url;
        $('[data-wait-text]').textContent = cfg.flow === 'eimzo' ? fmt('waitEIMZO') : fmt('waitIdentity', { method: fmt('method.' + signing.method) });
        say(msgOf('wait'), '');
        show('wait', $('[data-wait-title]'));
        watch(win);
      });
    }

    var sign = $('[data-action="sign"]');
    if (sign) sign.addEventListener('click', function () {
      if (cfg.flow === 'otp') sendCode('review', sign);
      else elsewhere(sign);
    });

    // Reject (the counterparty) and Cancel contract (the creator), each confirmed first.
    $$('[data-action="reject"]').forEach(function (b) {
      b.addEventListener('click', function () { say(msgOf('reject'), ''); show('reject', $('[data-action="back"]', panel('reject'))); });
    });
    $$('[data-action="cancel"]').forEach(function (b) {
      b.addEventListener('click', function () { say(msgOf('cancel'), ''); show('cancel', $('[data-action="back"]', panel('cancel'))); });
    });
    $$('[data-action="back"]').forEach(function (b) { b.addEventListener('click', function () { back(); }); });
    $('[data-action="confirm-reject"]').addEventListener('click', function (e) {
      var btn = e.currentTarget;
      busy(btn, true);
      open().then(function (r) {
        if (!r.ok) return r;
        return api('signing/reject', { token: signing.token });
      }).then(function (r) {
        busy(btn, false);
        if (r.ok) finish(r.data);
        else fail('reject', r);
      });
    });
    $('[data-action="confirm-cancel"]').addEventListener('click', function (e) {
      var btn = e.currentTarget;
      busy(btn, true);
      api('contracts/' + id + '/cancel').then(function (r) {
        busy(btn, false);
        if (r.ok) finish(r.data);
        else fail('cancel', r);
      });
    });
  }
})();
