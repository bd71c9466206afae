/*
 * Contracts SDK: shows a signing page in an iframe on the integrator's site.
 *
 *   var signing = Contracts.mount('#sign', sessionUrl, {
 *     onEvent: function (e) { if (e.type === 'SIGNED') checkOnTheServer(e.sessionId); }
 *   });
 *
 * Events (e.type): READY {method}, RESIZE {height}, SIGNED {sessionId, contractId},
 * REJECTED, ERROR {message}. They are UI signals only: confirm the result on
 * your server with GET /v1/sign-sessions/{id} or the webhook.
 */
(function (global) {
  'use strict';

  var SOURCE = '__SOURCE__';

  function mount(element, url, options) {
    options = options || {};
    var host = typeof element === 'string' ? global.document.querySelector(element) : element;
    if (!host) throw new Error('Contracts.mount: no element ' + element);
    var origin = new URL(url, global.location.href).origin;

    var frame = global.document.createElement('iframe');
    frame.src = url;
    // camera: face checks; the other two let E-IMZO on the signer's
    // computer (127.0.0.1) be reached from this cross-origin frame.
    frame.allow = 'camera; local-network-access; loopback-network';
    frame.title = options.title || 'Contract signing';
    frame.style.display = 'block';
    frame.style.width = '100%';
    frame.style.border = '0';
    frame.style.height = (options.height || 560) + 'px';

    // Only messages from this iframe, from the service's origin, with the
    // service's source, are taken.
    function onMessage(event) {
      if (event.source !== frame.contentWindow || event.origin !== origin) return;
      var data = event.data;
      if (!data || typeof data !== 'object' || data.source !== SOURCE || typeof data.type !== 'string') return;
      if (data.type === 'RESIZE' && typeof data.height === 'number' && data.height > 0) {
        frame.style.height = Math.ceil(data.height) + 'px';
      }
      if (typeof options.onEvent === 'function') options.onEvent(data);
    }
    global.addEventListener('message', onMessage);
    host.appendChild(frame);

    return {
      iframe: frame,
      origin: origin,
      destroy: function () {
        global.removeEventListener('message', onMessage);
        if (frame.parentNode) frame.parentNode.removeChild(frame);
      }
    };
  }

  global.Contracts = { mount: mount, source: SOURCE };
})(window);
