// What the signing page and the cabinet share: the page's configuration
// and words, requests to the page's JSON API with the refusal each answer
// names (X-Sign-Reason), messages, code inputs, the resend countdown and
// the contract's status on the document card.
(function () {
  'use strict';

  // ContractsPage reads the page's configuration (JSON in the element
  // configId, its words in t) and returns the helpers bound to it.
  window.ContractsPage = function (configId) {
    var cfg = JSON.parse(document.getElementById(configId).textContent);
    var T = cfg.t || {};

    function fmt(key, vars) {
      return String(T[key] || '').replace(/\{(\w+)\}/g, function (m, name) {
        return vars && vars[name] !== undefined ? String(vars[name]) : m;
      });
    }
    function $(sel, root) { return (root || document).querySelector(sel); }
    function $$(sel, root) { return Array.prototype.slice.call((root || document).querySelectorAll(sel)); }

    // request sends opts.body as JSON (none for GET) and answers
    // {ok, status, data, reason, left, retry}; a failed connection is
    // reason 'network'.
    function request(url, opts) {
      opts = opts || {};
      var method = opts.method || 'POST', headers = {};
      if (opts.csrf !== undefined) headers['X-CSRF-Token'] = opts.csrf || '';
      var init = { method: method, headers: headers, credentials: opts.credentials || 'same-origin', cache: 'no-store' };
      if (method !== 'GET') {
        headers['Content-Type'] = 'application/json';
        init.body = JSON.stringify(opts.body || {});
      }
      return fetch(url, init).then(function (res) {
        return res.json().catch(function () { return null; }).then(function (data) {
          return {
            ok: res.ok, status: res.status, data: data, reason: res.headers.get('X-Sign-Reason') || '',
            left: res.headers.get('X-Attempts-Left'), retry: parseInt(res.headers.get('Retry-After') || '0', 10)
          };
        });
      }, function () { return { ok: false, status: 0, reason: 'network' }; });
    }

    // The refusals both pages explain the same way; a page adds its own.
    var reasons = {
      'wrong-code': function (r) { return fmt('err.wrongCode', { n: r.left }); },
      'resend-wait': function (r) { return fmt('err.resendWait', { seconds: r.retry }); },
      'rate-limited': function (r) { return fmt('err.rateLimited', { seconds: r.retry }); },
      'code-format': 'err.codeFormat', 'code-expired': 'err.codeExpired', 'no-code': 'err.noCode',
      'sends-exhausted': 'err.sendsExhausted', 'unavailable': 'err.unavailable', 'network': 'err.network',
      'method-unavailable': 'err.methodUnavailable', 'contract-changed': 'err.contractChanged'
    };
    // errorText explains a refusal in the page's language, by own (the
    // page's words) before the shared ones; a refusal the page has no
    // words for shows the server's message, which is meant for people.
    function errorText(r, own) {
      var t = (own && own[r.reason]) || reasons[r.reason];
      if (typeof t === 'function') return t(r);
      if (t) return fmt(t);
      if (r.data && r.data.message && r.status >= 400 && r.status < 500) return r.data.message;
      return fmt('err.generic');
    }

    function say(el, text, kind) {
      if (!el) return;
      el.textContent = text || '';
      el.className = 'msg' + (kind ? ' ' + kind : '');
      el.setAttribute('role', kind === 'error' ? 'alert' : 'status');
    }
    // busy disables every action while a request is under way.
    function busy(btn, on) {
      $$('button[data-action]').forEach(function (b) { b.disabled = on; });
      if (btn) btn.setAttribute('aria-busy', on ? 'true' : 'false');
    }
    // digits keeps an input to at most n digits.
    function digits(input, n) {
      input.addEventListener('input', function () {
        var d = input.value.replace(/\D/g, '').slice(0, n);
        if (d !== input.value) input.value = d;
        input.removeAttribute('aria-invalid');
      });
    }

    // resender runs the countdown of a resend button from the server's
    // relative delay; the button goes when no sends are left.
    function resender(btn, hint) {
      var at = 0, left = 1, timer = 0;
      function stop() { clearInterval(timer); timer = 0; }
      function tick() {
        var s = Math.ceil((at - Date.now()) / 1000);
        btn.disabled = s > 0 || left <= 0;
        hint.textContent = s > 0 && left > 0 ? fmt('resendIn', { seconds: s }) : '';
        if (s <= 0) stop();
      }
      return {
        start: function (resendIn, sendsLeft) {
          at = Date.now() + (resendIn || 0) * 1000;
          if (typeof sendsLeft === 'number') left = sendsLeft;
          btn.hidden = left <= 0;
          stop();
          timer = setInterval(tick, 1000);
          tick();
        },
        exhausted: function () { left = 0; btn.hidden = true; tick(); },
        stop: function () { stop(); hint.textContent = ''; },
        tick: tick
      };
    }

    // panels shows one [data-panel] at a time.
    var panels = $$('[data-panel]');
    function panel(name) { return $('[data-panel="' + name + '"]'); }
    function show(name, focus) {
      panels.forEach(function (p) { p.hidden = p.getAttribute('data-panel') !== name; });
      if (focus) focus.focus({ preventScroll: true });
    }

    // setStatus puts new statuses on the document card.
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

    // done fills the done panel for a signature, rejection or cancellation
    // (kind signed, rejected or cancelled) and returns its title.
    function done(kind, data) {
      var ok = kind === 'signed', title = $('[data-done-title]');
      title.textContent = fmt(kind + 'Title');
      var text = ok && cfg.witnessed ? 'witness.signedText' : kind + 'Text';
      $('[data-done-text]').textContent = ok && data.contractStatus === 'ACTIVE' ? fmt('activeText') : fmt(text);
      $('[data-done-icon]').className = 'state-icon ' + (ok ? 'icon-ok' : 'icon-bad');
      $('[data-icon="ok"]').toggleAttribute('hidden', !ok); // SVG elements have no .hidden
      $('[data-icon="bad"]').toggleAttribute('hidden', ok);
      setStatus(data.contractStatus, data.partyStatus);
      return title;
    }

    return {
      cfg: cfg, T: T, fmt: fmt, $: $, $$: $$, request: request, errorText: errorText, say: say, busy: busy,
      digits: digits, resender: resender, panel: panel, show: show, setStatus: setStatus, done: done
    };
  };
})();
