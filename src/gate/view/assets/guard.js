// stepslide view, first script: records every error and warning, from
// three.js as from this page, on <body> (data-errors, data-warnings,
// data-status="error") and in the red box under the title, so that neither
// a person nor a test can miss one.
(function () {
  'use strict';
  const problems = { errors: [], warnings: [] };
  window.stepslideProblems = problems;

  function show() {
    const body = document.body;
    body.setAttribute('data-errors', String(problems.errors.length));
    body.setAttribute('data-warnings', String(problems.warnings.length));
    if (problems.errors.length === 0) return;
    body.setAttribute('data-status', 'error');
    const box = document.getElementById('problems');
    if (box) {
      box.hidden = false;
      box.textContent = problems.errors.join('\n');
    }
  }
  window.stepslideShowProblems = show;

  function text(args) {
    return Array.prototype.map.call(args, String).join(' ');
  }
  window.addEventListener('error', function (event) {
    problems.errors.push('error: ' + (event.message || String(event)));
    show();
  });
  window.addEventListener('unhandledrejection', function (event) {
    problems.errors.push('unhandled rejection: ' + String(event.reason));
    show();
  });
  const error = console.error;
  const warn = console.warn;
  console.error = function () {
    problems.errors.push('console.error: ' + text(arguments));
    show();
    return error.apply(console, arguments);
  };
  console.warn = function () {
    problems.warnings.push('console.warn: ' + text(arguments));
    show();
    return warn.apply(console, arguments);
  };
  show();
})();
