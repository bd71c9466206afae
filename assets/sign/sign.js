// Signing page: talks to its own server (same origin) and tells the parent
// page what happened with postMessage, only to parentOrigin when it is known.
// The signer confirms by the session's flow: an SMS code (otp), a face check
// at MY_ID or ABLE_ID in a popup (identity), or a key of the local E-IMZO
// client (eimzo). A rejection is confirmed the same way: the code, the
// check or an E-IMZO signature of the rejection.
(function () {
  'use strict';

  var P = window.ContractsPage('sign-config');
  var cfg = P.cfg, fmt = P.fmt, $ = P.$, panel = P.panel, show = P.show;
  var framed = window.parent !== window;

  function post(type, extra) {
    if (!framed) return;
    var msg = { source: cfg.source, type: type };
    for (var k in extra || {}) msg[k] = extra[k];
    window.parent.postMessage(msg, cfg.parentOrigin || '*');
  }

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

  function say(name, text, kind) { P.say($('[data-msg]', panel(name)), text, kind); }
  var resend = cfg.flow === 'otp' ? P.resender($('[data-action="resend"]'), $('[data-code-hint]')) : null;
  function busy(btn, on) {
    P.busy(btn, on);
    if (!on && resend) resend.tick();
  }

  var base = location.pathname.replace(/\/+$/, '');
  // api POSTs body (JSON) to the session's API; without a body ('GET') it reads.
  function api(path, body) {
    var get = body === 'GET';
    return P.request(base + '/' + path, { method: get ? 'GET' : 'POST', body: get ? null : body, credentials: 'omit' });
  }

  var reasonText = {
    'unavailable': function () {
      return fmt(cfg.flow === 'identity' ? 'err.identityUnavailable' : cfg.flow === 'eimzo' ? 'err.eimzoUnavailable' : 'err.unavailable');
    },
    'identity-mismatch': 'err.identityMismatch', 'identity-state': 'err.identityState',
    'identity-cancelled': 'err.identityCancelled', 'identity-refused': 'err.identityRefused',
    'identity-reason': function (r) { return fmt('err.identityReason', { code: r.code || '?' }); },
    'code-intent': 'reject.err.codeIntent',
    'signature-refused': function () { return fmt('err.signatureRefused', { id: cfg.idLabel + ' ' + cfg.signerIn }); }
  };
  function errorText(r) { return P.errorText(r, reasonText); }

  // A 403 or 404 means the session can no longer be used: say so and tell the parent.
  function closedBy(r) {
    if (r.status !== 403 && r.status !== 404) return false;
    if (r.reason && r.reason.indexOf('session-') !== 0) return false; // e.g. a used identity state: the session lives on
    var msg = r.reason === 'session-expired' ? 'session expired' : r.status === 404 ? 'session not found' : 'session closed';
    var key = msg === 'session expired' ? 'expired' : msg === 'session not found' ? 'notFound' : 'closed';
    $('[data-closed-title]').textContent = fmt(key + 'Title');
    $('[data-closed-text]').textContent = fmt(key + 'Text');
    if (resend) resend.stop();
    show('closed', $('[data-closed-title]'));
    post('ERROR', { message: msg });
    return true;
  }

  function finish(kind, data) {
    var ok = kind === 'signed', title = P.done(kind, data);
    if (resend) resend.stop();
    // Continue (to redirectUrl) follows a signature only.
    var next = $('[data-action="continue"]');
    if (next) next.parentNode.hidden = !ok;
    show('done', ok && next ? next : title);
  }

  // signed shows the signature and tells the parent, once.
  var signedOnce = false;
  function signed(data) {
    if (signedOnce) return;
    signedOnce = true;
    finish('signed', data);
    post('SIGNED', { sessionId: data.sessionId, contractId: data.contractId });
  }

  // intent is what the code, the identity check or the E-IMZO key confirms
  // next: 'sign' or 'reject'; the panels' titles say which.
  var intent = 'sign';
  function setIntent(next) {
    intent = next;
    var titles = { code: ['.title', 'codeTitle'], eimzo: ['[data-eimzo-title]', 'eimzoTitle'], identity: ['[data-identity-title]', null] };
    for (var name in titles) {
      var p = panel(name), el = p && $(titles[name][0], p);
      if (!el) continue;
      if (!el.dataset.signTitle) el.dataset.signTitle = el.textContent;
      el.textContent = next === 'reject' ? fmt('reject.' + name + 'Title', { provider: cfg.provider || '' }) : el.dataset.signTitle;
    }
    ['confirm-code', 'confirm-eimzo'].forEach(function (action) {
      var btn = $('[data-action="' + action + '"]');
      if (btn) { btn.classList.toggle('btn-danger', next === 'reject'); btn.classList.toggle('btn-primary', next !== 'reject'); }
    });
  }

  // rejected shows the rejection (a cancel for the creator's party) and tells the parent.
  function rejected(data) {
    finish(data.contractStatus === 'CANCELLED' ? 'cancelled' : 'rejected', data);
    post('REJECTED');
  }

  // outcome shows what an action on the session ended in.
  function outcome(data) {
    if (data.status === 'REJECTED') rejected(data);
    else signed(data);
  }

  function openCode(info, focus) {
    if (info.phone) $('[data-code-sent]').textContent = fmt('codeSent', { phone: info.phone });
    resend.start(info.resendIn, info.sendsLeft);
    show('code', focus === false ? null : $('#sms-code'));
  }

  function sendCode(from, btn) {
    say(from, fmt('sending'));
    busy(btn, true);
    return api('code', intent === 'reject' ? { intent: 'reject' } : null).then(function (r) {
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
      if (r.reason === 'sends-exhausted') resend.exhausted();
      say(from, errorText(r), 'error');
    });
  }

  function otpFlow(signBtn) {
    // A code in force is used again only for the act it was sent for.
    function begin(from, btn) {
      var c = cfg.code;
      cfg.code = null;
      if (c && (c.intent || 'sign') === intent) { openCode(c); return; }
      sendCode(from, btn);
    }
    signBtn.addEventListener('click', function () { setIntent('sign'); begin('review', signBtn); });
    confirmReject = function (btn) { setIntent('reject'); begin('reject', btn); };
    $('[data-action="resend"]').addEventListener('click', function (e) { sendCode('code', e.currentTarget); });

    var input = $('#sms-code');
    P.digits(input, 5);
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
      api(intent === 'reject' ? 'reject' : 'confirm', { code: code }).then(function (r) {
        busy(btn, false);
        if (r.ok) {
          outcome(r.data);
          return;
        }
        if (closedBy(r)) return;
        input.setAttribute('aria-invalid', 'true');
        say('code', errorText(r), 'error');
        input.select();
      });
    });
  }

  // MY_ID and ABLE_ID: the provider's page opens in a popup, as the face
  // check needs a window of its own. The popup comes back to
  // /sign/idp/callback, which signs and posts IDENTITY to this page (same
  // origin); while it waits, the page also polls the session, in case the
  // provider's page cut the popup's link to its opener.
  function identityFlow(signBtn) {
    var vars = { provider: cfg.provider };
    var popup = null, poll = 0, waitUntil = 0, lastCheck = 0, closedSeen = false, checking = false;

    function stopWaiting() { clearInterval(poll); poll = 0; }
    function check() {
      if (checking) return;
      checking = true;
      lastCheck = Date.now();
      api('status', 'GET').then(function (r) {
        checking = false;
        if (!poll) return;
        if (r.ok && (r.data.status === 'SIGNED' || r.data.status === 'REJECTED')) {
          stopWaiting();
          outcome(r.data);
        } else if (r.ok && r.data.status !== 'PENDING') {
          stopWaiting();
          closedBy({ status: 403, reason: r.data.status === 'EXPIRED' ? 'session-expired' : 'session-closed' });
        } else if (!r.ok && closedBy(r)) {
          stopWaiting();
        }
      });
    }
    function wait() {
      stopWaiting();
      closedSeen = false;
      lastCheck = Date.now();
      waitUntil = lastCheck + 15 * 60 * 1000;
      poll = setInterval(function () {
        if (popup && popup.closed && !closedSeen) {
          closedSeen = true;
          say('identity', fmt('idpClosed', vars), 'info');
          check();
        }
        if (Date.now() - lastCheck >= 3000) check();
        if (Date.now() > waitUntil) stopWaiting();
      }, 500);
    }

    function start(from, btn) {
      // The window opens within the click: one opened after the server
      // answers would be blocked as an unrequested popup.
      var w = popup && !popup.closed ? popup : null;
      if (!w) {
        try { w = window.open('', '_blank', 'popup=yes,width=520,height=720'); } catch (e) { w = null; }
        if (!w) {
          say(from, fmt('err.popupBlocked', vars), 'error');
          return;
        }
        try {
          w.document.title = fmt('idpOpening', vars);
          w.document.body.textContent = fmt('idpOpening', vars);
        } catch (e) { /* nothing to show */ }
      }
      w.focus();
      say(from, fmt('idpStarting', vars));
      busy(btn, true);
      api('identity', intent === 'reject' ? { intent: 'reject' } : null).then(function (r) {
        busy(btn, false);
        if (!r.ok) {
          w.close();
          if (closedBy(r)) return;
          say(from, errorText(r), 'error');
          return;
        }
        popup = w;
        w.location.href = r.data.authUrl;
        say(from, '');
        say('identity', '');
        show('identity', $('[data-identity-title]'));
        wait();
      });
    }

    window.addEventListener('message', function (e) {
      var d = e.data;
      if (e.origin !== location.origin || !d || typeof d !== 'object' || d.source !== cfg.source || d.type !== 'IDENTITY') return;
      if (popup && e.source !== popup) return;
      if (d.sessionId && d.sessionId !== cfg.sessionId) return;
      stopWaiting();
      if (d.ok && d.result) {
        outcome(d.result);
        return;
      }
      if (closedBy({ status: d.status, reason: d.reason })) return;
      show('identity', $('[data-identity-title]'));
      say('identity', errorText({ reason: d.reason, code: d.code }), 'error');
    });
    signBtn.addEventListener('click', function () { setIntent('sign'); start('review', signBtn); });
    confirmReject = function (btn) { setIntent('reject'); start('reject', btn); };
    $('[data-action="identity-again"]').addEventListener('click', function (e) { start('identity', e.currentTarget); });
  }

  // E_IMZO: the signer's local E-IMZO client lists the keys on this
  // computer and makes an attached PKCS#7 of the document hash with the
  // chosen one; the server has it verified by the E-IMZO server.
  // window.ContractsEIMZO, when present, stands in for the local client:
  // {listKeys() -> Promise of [{id, name, tin, pinfl, validTo}],
  //  sign(id, data64) -> Promise of the PKCS#7 in base64}.
  function eimzoFlow(signBtn) {
    var ez = cfg.eimzo, select = $('#eimzo-key'), retry = $('[data-action="eimzo-retry"]');
    var submit = $('[data-action="confirm-eimzo"]'), detail = $('[data-eimzo-detail]'), local = null;

    function client() { return window.ContractsEIMZO || (local = local || localEIMZO(ez)); }
    function mine(k) { return cfg.signerCompany ? k.tin === cfg.signerIn : k.pinfl === cfg.signerIn && !k.tin; }
    function keyText(k) {
      var id = k.tin ? fmt('tin') + ' ' + k.tin : k.pinfl ? fmt('pinfl') + ' ' + k.pinfl : '';
      return [k.name, id, k.validTo ? fmt('eimzoValidTo', { date: k.validTo }) : ''].filter(Boolean).join(' · ');
    }
    function failText(err) {
      var code = err && err.code;
      if (code === 'not-running') return fmt('err.eimzoNotRunning');
      if (code === 'blocked') return fmt('err.eimzoBlocked');
      if (code === 'too-old') return fmt('err.eimzoTooOld', { version: err.message || '', needed: MIN_EIMZO.join('.') });
      if (code === 'api-key') return fmt('err.eimzoApiKey');
      return fmt('err.eimzoFailed', { reason: (err && err.message) || '' });
    }
    function retryable(err) { return err && (err.code === 'not-running' || err.code === 'blocked' || err.code === 'too-old'); }
    function load() {
      select.disabled = true;
      select.textContent = '';
      retry.hidden = true;
      detail.textContent = '';
      say('eimzo', fmt('eimzoConnecting'));
      busy(null, true);
      Promise.resolve().then(function () { return client().listKeys(); }).then(function (keys) {
        busy(null, false);
        keys = (keys || []).slice().sort(function (a, b) { return mine(b) - mine(a); });
        if (!keys.length) {
          say('eimzo', fmt('err.eimzoNoKeys'), 'error');
          retry.hidden = false;
          submit.disabled = true;
          return;
        }
        keys.forEach(function (k) {
          var o = document.createElement('option');
          o.value = k.id;
          o.textContent = keyText(k);
          select.appendChild(o);
        });
        select.disabled = false;
        say('eimzo', '');
        select.focus();
      }, function (err) {
        busy(null, false);
        say('eimzo', failText(err), 'error');
        retry.hidden = false;
        submit.disabled = true;
      });
    }

    panel('eimzo').addEventListener('submit', function (e) {
      e.preventDefault();
      if (!select.value || submit.disabled) return;
      detail.textContent = '';
      say('eimzo', fmt('eimzoSigning'));
      busy(submit, true);
      select.disabled = true;
      function done() { busy(submit, false); select.disabled = false; }
      var rejecting = intent === 'reject';
      Promise.resolve().then(function () { return client().sign(select.value, rejecting ? ez.reject64 : ez.data64); }).then(function (pkcs7) {
        return api(rejecting ? 'reject' : 'eimzo', { pkcs7: pkcs7 }).then(function (r) {
          done();
          if (r.ok) {
            outcome(r.data);
            return;
          }
          if (closedBy(r)) return;
          say('eimzo', errorText(r), 'error');
          if (r.reason === 'signature-refused' && r.data && r.data.message) detail.textContent = r.data.message;
        });
      }, function (err) {
        done();
        say('eimzo', failText(err), 'error');
        if (retryable(err)) retry.hidden = false;
      });
    });
    signBtn.addEventListener('click', function () { setIntent('sign'); show('eimzo', $('[data-eimzo-title]')); load(); });
    confirmReject = function () { setIntent('reject'); show('eimzo', $('[data-eimzo-title]')); load(); };
    retry.addEventListener('click', load);
  }

  // The oldest E-IMZO the page works with.
  var MIN_EIMZO = [3, 37];

  // localNetworkBlocked tells whether the browser, rather than a stopped
  // E-IMZO, kept the page from 127.0.0.1: Chromium's Local Network Access
  // refuses a frame its permission policy does not allow, and a signer
  // who said no.
  function localNetworkBlocked() {
    var names = ['local-network-access', 'loopback-network'];
    var policy = document.permissionsPolicy || document.featurePolicy;
    try {
      if (policy && policy.features && policy.allowsFeature) {
        var known = policy.features();
        for (var i = 0; i < names.length; i++) {
          if (known.indexOf(names[i]) >= 0 && !policy.allowsFeature(names[i])) return Promise.resolve(true);
        }
      }
    } catch (e) { /* an older browser: no policy to read */ }
    if (!navigator.permissions || !navigator.permissions.query) return Promise.resolve(false);
    function ask(i) {
      if (i >= names.length) return Promise.resolve(false);
      return navigator.permissions.query({ name: names[i] }).then(function (s) { return s.state === 'denied'; }, function () { return ask(i + 1); });
    }
    return ask(0);
  }

  // localEIMZO speaks E-IMZO's CAPIWS protocol on the client's local
  // websocket, one socket per call: {plugin, name, arguments} out, JSON
  // with success (and reason) back. The version is checked first, then the
  // site's API keys go; the keys are PFX files (pfx list_all_certificates,
  // then pfx load_key: E-IMZO asks for the password in its own window), an
  // ID card in a reader (idcard list_readers) and BAIK tokens (baikey
  // list_tokens), each signing with pkcs7 create_pkcs7, detached "no".
  function localEIMZO(ez) {
    var url = location.protocol === 'https:' ? ez.secureUrl : ez.plainUrl;
    var certs = {}, ready = null;
    function fail(code, message) { var e = new Error(message || code); e.code = code; return e; }
    function call(def) {
      return new Promise(function (resolve, reject) {
        var ws, answered = false;
        function unreachable() {
          localNetworkBlocked().then(function (blocked) { reject(fail(blocked ? 'blocked' : 'not-running')); });
        }
        try { ws = new WebSocket(url); } catch (e) { unreachable(); return; }
        ws.onopen = function () { ws.send(JSON.stringify(def)); };
        ws.onmessage = function (ev) {
          answered = true;
          ws.close();
          var data = null;
          try { data = JSON.parse(ev.data); } catch (e) { data = null; }
          if (!data) reject(fail('failed', 'unreadable answer'));
          else if (data.success === false) reject(fail(def.name === 'apikey' ? 'api-key' : 'failed', data.reason));
          else resolve(data);
        };
        ws.onerror = ws.onclose = function () {
          if (answered) return;
          answered = true;
          ready = null; // E-IMZO may be started later: present the keys again then
          unreachable();
        };
      });
    }
    function init() {
      if (!ready) {
        ready = call({ name: 'version' }).then(function (v) {
          var major = parseInt(v.major, 10) || 0, minor = parseInt(v.minor, 10) || 0;
          if (major * 100 + minor < MIN_EIMZO[0] * 100 + MIN_EIMZO[1]) throw fail('too-old', v.major + '.' + v.minor);
          return call({ name: 'apikey', arguments: ez.apiKeys });
        }).catch(function (e) { ready = null; throw e; });
      }
      return ready;
    }
    // optional lists the keys of a plugin this E-IMZO may lack: none then.
    function optional(def, keys) {
      return call(def).then(keys, function (e) { if (e.code === 'failed') return []; throw e; });
    }
    // An alias reads "cn=...,o=...,1.2.860.3.16.1.1=...,validto=2027.01.01 00:00:00,..."; values may hold commas.
    function parseAlias(alias) {
      var out = {};
      String(alias || '').split(/,(?=[a-z0-9.]+=)/i).forEach(function (part) {
        var i = part.indexOf('=');
        if (i > 0) out[part.slice(0, i).toLowerCase()] = part.slice(i + 1);
      });
      return out;
    }
    function dateOf(s) {
      var m = /^(\d{4})\.(\d{2})\.(\d{2})/.exec(s || '');
      return m ? m[3] + '.' + m[2] + '.' + m[1] : '';
    }
    return {
      listKeys: function () {
        var keys = [];
        certs = {};
        return init().then(function () { return call({ plugin: 'pfx', name: 'list_all_certificates' }); }).then(function (data) {
          (data.certificates || []).forEach(function (c, i) {
            var a = parseAlias(c.alias), id = 'pfx-' + i;
            certs[id] = c;
            keys.push({ id: id, name: a.cn || c.name, tin: a['1.2.860.3.16.1.1'] || '', pinfl: a['1.2.860.3.16.1.2'] || '', validTo: dateOf(a.validto) });
          });
          return optional({ plugin: 'idcard', name: 'list_readers' }, function (d) { return d.readers || []; });
        }).then(function (readers) {
          if (readers.length) {
            certs.idcard = { keyId: 'idcard' };
            keys.push({ id: 'idcard', name: fmt('eimzoIdCard') });
          }
          return optional({ plugin: 'baikey', name: 'list_tokens' }, function (d) { return d.tokens || []; });
        }).then(function (tokens) {
          if (tokens.length) {
            certs.baikey = { keyId: 'baikey' };
            keys.push({ id: 'baikey', name: fmt('eimzoBaikey') });
          }
          return keys;
        });
      },
      sign: function (id, data64) {
        var c = certs[id];
        if (!c) return Promise.reject(fail('failed', 'unknown key'));
        return init().then(function () {
          // An ID card or a token signs by its plugin's name, asking its PIN itself.
          return c.keyId ? { keyId: c.keyId } : call({ plugin: 'pfx', name: 'load_key', arguments: [c.disk, c.path, c.name, c.alias] });
        }).then(function (data) {
          return call({ plugin: 'pkcs7', name: 'create_pkcs7', arguments: [data64, data.keyId, 'no'] });
        }).then(function (data) {
          if (!data.pkcs7_64) throw fail('failed', 'no signature');
          return data.pkcs7_64;
        });
      }
    };
  }

  // confirmReject walks the signer through the flow's confirmation of a
  // rejection; each flow sets it.
  var confirmReject = null;
  var signBtn = $('[data-action="sign"]');
  if (signBtn) ({ otp: otpFlow, identity: identityFlow, eimzo: eimzoFlow })[cfg.flow](signBtn);

  var how = $('[data-reject-how]');
  if (how && confirmReject) {
    how.textContent = fmt('reject.how.' + cfg.flow, { provider: cfg.provider || '' });
    how.hidden = false;
  }
  document.querySelectorAll('[data-action="reject"]').forEach(function (b) {
    b.addEventListener('click', function () { say('reject', ''); show('reject', $('[data-action="back"]')); });
  });
  $('[data-action="back"]').addEventListener('click', function () { setIntent('sign'); show('review', $('[data-action="reject"]')); });
  $('[data-action="confirm-reject"]').addEventListener('click', function (e) {
    if (confirmReject) confirmReject(e.currentTarget);
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
