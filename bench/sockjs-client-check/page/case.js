'use strict';
// Runs in the browser: one transport against one server, as an application
// would use sockjs-client. check.js calls window.sockjsCase() and reads the
// result; null means every step passed, otherwise the first failure in words.

(function () {
  // Characters a SockJS server must get right both ways: non-ASCII, a quote,
  // a backslash and the U+2028 that JSON allows but JavaScript source did not.
  function payload(step, transport) {
    return step + ' via ' + transport + ' ' + Math.random().toString(36).slice(2) + ' \u00fc"\\\u2028\u00e9';
  }

  function closeText(e) {
    return 'close ' + e.code + ' ' + JSON.stringify(e.reason) + (e.wasClean ? ' (clean)' : '');
  }

  // One SockJS session on `url` with only `transport` allowed. `script` gets
  // (sock, fail, pass) once it opened with that very transport; whatever
  // happens first (pass, fail, close, timeout) decides.
  function session(url, transport, timeoutMs, script) {
    return new Promise(function (resolve) {
      var done = false;
      var state = 'opening';
      var sock;
      function finish(result) {
        if (done) return;
        done = true;
        clearTimeout(timer);
        resolve(result);
      }
      var timer = setTimeout(function () {
        finish('no outcome within ' + timeoutMs + ' ms (' + state + ')');
        try { sock.close(); } catch (e) { /* already closed */ }
      }, timeoutMs);
      try {
        // timeout: sockjs-client's own connect timeout, ms; its default (a few
        // round trips, ~1 s on loopback) is too short for a busy 2-core machine.
        sock = new SockJS(url, null, { transports: [transport], timeout: timeoutMs - 500 });
      } catch (err) {
        finish('new SockJS threw: ' + err.message);
        return;
      }
      var handlers = { message: null, close: null };
      sock.onopen = function () {
        if (sock.transport !== transport) {
          finish('opened with ' + sock.transport + ', not ' + transport);
          return;
        }
        state = 'open';
        script(sock, handlers, function (why) { finish(why); }, function () { finish(null); },
          function (s) { state = s; });
      };
      sock.onmessage = function (e) { if (handlers.message) handlers.message(e.data); };
      sock.onclose = function (e) {
        if (handlers.close) handlers.close(e);
        else finish('session ended in state ' + state + ': ' + closeText(e));
      };
    });
  }

  // The client closes the session; it passes when the close is clean (1000, wasClean).
  function closeCleanly(sock, on, fail, pass) {
    on.close = function (e) {
      if (e.code === 1000 && e.wasClean) pass();
      else fail('client close ended as ' + closeText(e));
    };
    sock.close();
  }

  // `path` answers what this session sends: it comes back unchanged, then a
  // client close is clean. `what` names the answer (in the payload and the
  // states); with `othersFail`, any other message fails the step.
  function sentComesBack(path, what, othersFail) {
    return function (base, transport, timeoutMs) {
      return session(base + path, transport, timeoutMs, function (sock, on, fail, pass, setState) {
        var sent = payload(what, transport);
        on.message = function (data) {
          if (data === sent) {
            setState(what + ' received, closing');
            closeCleanly(sock, on, fail, pass);
          } else if (othersFail) {
            fail(what + ' returned ' + JSON.stringify(data) + ' for ' + JSON.stringify(sent));
          }
        };
        setState('sent, waiting for the ' + what);
        sock.send(sent);
      });
    };
  }

  // /echo: a message comes back unchanged, then a client close is clean.
  var echo = sentComesBack('/echo', 'echo', true);

  // /broadcast: what this session sends reaches every session, itself included.
  // Other cases broadcast on the same server meanwhile: only ours counts.
  var broadcast = sentComesBack('/broadcast', 'broadcast', false);

  // /close: the server closes the session right after it opens, with 3000 "Go away!".
  function serverClose(base, transport, timeoutMs) {
    return session(base + '/close', transport, timeoutMs, function (sock, on, fail, pass, setState) {
      setState('open, waiting for the server to close it');
      on.close = function (e) {
        if (e.code === 3000 && e.reason === 'Go away!') pass();
        else fail('server close arrived as ' + closeText(e) + ', not 3000 "Go away!"');
      };
    });
  }

  var STEPS = [['echo', echo], ['broadcast', broadcast], ['server close', serverClose]];

  // Every step in turn; the first failure stops the case.
  window.sockjsCase = async function (args) {
    for (var i = 0; i < STEPS.length; i++) {
      var why = await STEPS[i][1](args.base, args.transport, args.timeoutMs);
      if (why !== null) return STEPS[i][0] + ': ' + why;
    }
    return null;
  };
}());
