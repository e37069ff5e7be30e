'use strict';
// A stand-in for VS Code's extension host, for tests/test_vscode_extension.py: it loads
// the extension (extension.js and the real vscode-languageclient) with a `vscode`
// module of its own, activates it, opens a quest, waits for the diagnostics the
// server publishes into the extension's diagnostic collection, changes a setting (the
// client must restart the server), and deactivates. VS Code itself cannot run on the
// test machines; everything here but the `vscode` module is what runs inside it.
//
//   node tools/vscode-host.js EXTENSION_DIR QUEST --questc PATH [--questc-after PATH] [--preview]
// prints {spawned, errors, opened, diagnostics, restarted, preview, exits, output} as JSON.
// --preview: press the editor's preview button (the extension's command), type in the quest
// and wait for the page to follow, then click a square on the page and wait for VS Code to be
// asked to show its statement.
const fs = require('fs');
const path = require('path');
const Module = require('module');
const childProcess = require('child_process');
const { pathToFileURL, fileURLToPath } = require('url');

const [extensionDir, questFile, ...rest] = process.argv.slice(2);
const option = (name) => { const i = rest.indexOf(name); return i >= 0 ? rest[i + 1] : undefined; };
const folder = path.dirname(path.resolve(questFile));
const settings = { path: option('--questc'), serverArgs: [], 'trace.server': option('--trace') || 'off' };

// ---- what the test watches -------------------------------------------------------
const spawned = [];
const exits = [];
const spawn = childProcess.spawn;
childProcess.spawn = function (command, args, options) {
  spawned.push({ command, args, cwd: options && options.cwd });
  const child = spawn.apply(this, arguments);
  child.on('exit', (code, signal) => exits.push({ code, signal }));
  return child;
};
const errors = [];
const output = [];
const commands = new Map();     // what the extension and the client registered
const externals = [];           // vscode.env.openExternal
const shownEditors = [];        // vscode.window.showTextDocument
let activeTextEditor;
const diagnostics = new Map();
let diagnosticsChanged = () => {};

// ---- the `vscode` module ------------------------------------------------------------
// Anything the client touches but the test does not look at is a stub: a callable,
// constructible proxy whose properties are stubs again.
function stub(name) {
  return new Proxy(function () {}, {
    get(target, prop) {
      if (prop === 'then') return undefined;
      if (prop === Symbol.toPrimitive) return () => `[${name}]`;
      if (prop === Symbol.iterator) return function* () {};
      if (prop === 'prototype') return target.prototype;
      return stub(`${name}.${String(prop)}`);
    },
    apply: () => stub(`${name}()`),
    construct: () => stub(`new ${name}`),
  });
}
function partial(name, real) {
  return new Proxy(real, { get: (t, p) => (p in t ? t[p] : stub(`${name}.${String(p)}`)) });
}
class Emitter {
  constructor() {
    this.listeners = [];
    // VS Code's events call a listener with the `this` it was given (the client's features rely on it).
    this.event = (listener, thisArgs) => { this.listeners.push(thisArgs ? listener.bind(thisArgs) : listener); return { dispose() {} }; };
  }
  fire(value) { for (const listener of this.listeners) listener(value); }
  dispose() { this.listeners = []; }
}
const uri = (file) => partial('Uri', {
  scheme: 'file', fsPath: file, path: file, toString: () => pathToFileURL(file).href, toJSON: () => pathToFileURL(file).href,
});
const webUri = (href) => partial('Uri', {
  scheme: new URL(href).protocol.replace(/:$/, ''), path: new URL(href).pathname, toString: () => href, toJSON: () => href,
});
class Position { constructor(line, character) { this.line = line; this.character = character; } }
class Range {
  constructor(a, b, c, d) {
    [this.start, this.end] = typeof a === 'number' ? [new Position(a, b), new Position(c, d)] : [a, b];
  }
}
class Disposable {
  constructor(onDispose) { this.onDispose = onDispose; }
  dispose() { if (this.onDispose) this.onDispose(); this.onDispose = undefined; }
  static from(...items) { return new Disposable(() => items.forEach((item) => item.dispose())); }
}
class CancellationTokenSource {
  constructor() {
    this.token = { isCancellationRequested: false, onCancellationRequested: () => ({ dispose() {} }) };
  }
  cancel() { this.token.isCancellationRequested = true; }
  dispose() {}
}
class Diagnostic { constructor(range, message, severity) { Object.assign(this, { range, message, severity }); } }
const events = {
  open: new Emitter(), change: new Emitter(), close: new Emitter(), save: new Emitter(), configuration: new Emitter(),
};
const vscode = partial('vscode', {
  version: '1.82.0',
  env: partial('env', {
    appName: 'Visual Studio Code', language: 'en', machineId: 'test', sessionId: 'test',
    openExternal: async (target) => { externals.push(target.toString()); return true; },
  }),
  commands: partial('commands', {
    registerCommand: (id, handler) => { commands.set(id, handler); return new Disposable(() => commands.delete(id)); },
    executeCommand: async (id, ...args) => (commands.has(id) ? commands.get(id)(...args) : undefined),
  }),
  // Like VS Code's Uri.parse, any scheme: a diagnostic's codeDescription links a web page.
  Uri: partial('Uri', { file: uri, parse: (s) => (s.startsWith('file:') ? uri(fileURLToPath(s)) : webUri(s)) }),
  Position, Range, Diagnostic, CancellationTokenSource,
  DiagnosticSeverity: { Error: 0, Warning: 1, Information: 2, Hint: 3 },
  EventEmitter: Emitter,
  Disposable,
  workspace: partial('workspace', {
    getConfiguration: (section) => ({
      get: (key, fallback) => (section === 'questc' && key in settings ? settings[key] : fallback),
      has: () => false,
    }),
    workspaceFolders: [{ uri: uri(folder), name: path.basename(folder), index: 0 }],
    getWorkspaceFolder: () => ({ uri: uri(folder), name: path.basename(folder), index: 0 }),
    textDocuments: [],
    onDidOpenTextDocument: events.open.event,
    onDidChangeTextDocument: events.change.event,
    onDidCloseTextDocument: events.close.event,
    onDidSaveTextDocument: events.save.event,
    onDidChangeConfiguration: events.configuration.event,
  }),
  window: partial('window', {
    createOutputChannel: (name) => partial('OutputChannel', {
      name, append: (s) => output.push(s), appendLine: (s) => output.push(`${s}\n`), show() {}, dispose() {},
    }),
    showErrorMessage: async (...args) => { errors.push(args.map(String)); return undefined; },
    get activeTextEditor() { return activeTextEditor; },
    showTextDocument: async (target, options) => {
      const where = options && options.selection;
      shownEditors.push({
        uri: target.toString(), preserveFocus: options ? !!options.preserveFocus : undefined,
        selection: where ? [where.start.line, where.start.character, where.end.line, where.end.character] : null,
      });
      return stub('TextEditor');
    },
  }),
  languages: partial('languages', {
    // Enough of VS Code's document selector matching for {scheme, language} filters.
    match: (selector, document) => ([].concat(selector).some((filter) =>
      (!filter.language || filter.language === document.languageId) &&
      (!filter.scheme || filter.scheme === document.uri.scheme)) ? 10 : 0),
    createDiagnosticCollection: () => partial('DiagnosticCollection', {
      set(target, list) { diagnostics.set(target.toString(), list); diagnosticsChanged(); },
      delete(target) { diagnostics.delete(target.toString()); },
      clear() { diagnostics.clear(); },
      dispose() {},
    }),
  }),
});
const resolve = Module._resolveFilename;
Module._resolveFilename = function (request, ...args) {
  return request === 'vscode' ? 'vscode' : resolve.call(this, request, ...args);
};
require.cache.vscode = { id: 'vscode', filename: 'vscode', loaded: true, exports: vscode };

// ---- the session ----------------------------------------------------------------------
function waitFor(check, ms, what) {
  return new Promise((done, fail) => {
    const timer = setTimeout(() => fail(new Error(`no ${what} within ${ms} ms`)), ms);
    diagnosticsChanged = () => { if (check()) { clearTimeout(timer); done(); } };
    diagnosticsChanged();
  });
}

const plain = (d) => ({
  line: d.range.start.line + 1, column: d.range.start.character + 1, severity: d.severity,
  code: typeof d.code === 'object' && d.code ? d.code.value : d.code, message: d.message, source: d.source,
});

async function main() {
  const extension = require(path.resolve(extensionDir, 'extension.js'));
  const context = { subscriptions: [], extensionPath: extensionDir };
  await extension.activate(context);
  const file = path.resolve(questFile);
  const text = fs.readFileSync(file, 'utf8');
  const document = {
    uri: uri(file), fileName: file, languageId: 'quest', version: 1, isClosed: false, isUntitled: false,
    getText: () => text, lineCount: text.split('\n').length,
  };
  const key = document.uri.toString();
  let opened = [];
  if (errors.length === 0) {
    events.open.fire(document);
    await waitFor(() => diagnostics.has(key), 30000, 'diagnostics');
    opened = diagnostics.get(key);
  }
  let preview = null;
  if (rest.includes('--preview')) preview = await previewSession(document);
  let restarted = null;
  if (option('--questc-after')) {
    // A new questc.path: the extension restarts the server with it.
    // The restarted client opens the documents VS Code has open, and the new server
    // checks them again.
    settings.path = option('--questc-after');
    vscode.workspace.textDocuments.push(document);
    diagnostics.delete(key);
    events.configuration.fire({ affectsConfiguration: (section) => section === 'questc.path' });
    await waitFor(() => diagnostics.has(key), 30000, 'diagnostics from the restarted server');
    restarted = diagnostics.get(key).map(plain);
  }
  await extension.deactivate();
  for (const subscription of context.subscriptions) subscription.dispose();
  const deadline = Date.now() + 10000;
  while (exits.length < spawned.length && Date.now() < deadline) await new Promise((done) => setTimeout(done, 50));
  process.stdout.write(JSON.stringify({
    spawned, errors, opened: opened.map(plain), restarted, preview, exits, output: output.join(''),
  }, null, 1) + '\n');
}

// ---- the preview, as a writer uses it --------------------------------------------------------
async function until(what, check, ms = 20000) {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`no ${what} within ${ms} ms`);
    await new Promise((done) => setTimeout(done, 50));
  }
}

async function previewSession(document) {
  activeTextEditor = { document };
  const started = Date.now();
  // The editor's button: the extension's command, which asks the server for the page.
  const answer = await commands.get('questc.openPreview')();
  const state = async () => (await fetch(answer.url + 'api/state')).json();
  const first = await until('first scene', async () => { const s = await state(); return s.scene && s; });
  const opened = await until('the page opened in the browser', () => externals.includes(answer.url));
  // Typing: the title gets a letter; VS Code sends the change, the page follows the unsaved text.
  const text = document.getText();
  const at = text.indexOf('"') + 1;
  const typed = text.slice(0, at) + 'The ' + text.slice(at);
  const line = text.slice(0, at).split('\n').length - 1;
  const character = at - (text.lastIndexOf('\n', at - 1) + 1);
  document.version = 2;
  document.getText = () => typed;
  const typedAt = Date.now();
  events.change.fire({
    document, reason: undefined,
    contentChanges: [{ range: new Range(line, character, line, character), rangeOffset: at, rangeLength: 0, text: 'The ' }],
  });
  const followed = await until('the page to follow the typing', async () => {
    const s = await state(); return s.scene && s.scene.title.startsWith('The ') && s;
  });
  const followMs = Date.now() - typedAt;
  // A click on a square of the page: VS Code is asked to show the statement that placed it.
  const [x, y] = JSON.parse(option('--click') || '[2, 2]');
  const origin = answer.url.replace(/\/$/, '');
  const clicked = await fetch(answer.url + 'api/show', {
    method: 'POST', headers: { 'Content-Type': 'application/json', Origin: origin },
    body: JSON.stringify({ cell: [x, y], focus: true }),
  });
  const shown = await until('VS Code to show the statement', () => shownEditors.length && shownEditors[0]);
  return {
    url: answer.url, uri: answer.uri, opened, title: first.scene.title, typedTitle: followed.scene.title,
    followMs, clicked: clicked.status, shown, openMs: typedAt - started,
  };
}

main().catch((err) => {
  process.stderr.write(`${err.stack || err}\n${output.join('')}\n`);
  process.exit(1);
});
// A session that hangs (a stop that never settles...) is a failure, with what it saw.
setTimeout(() => {
  process.stderr.write(`vscode-host: no end after 120 s; spawned ${JSON.stringify(spawned)}, exits ${JSON.stringify(exits)}\n${output.join('')}\n`);
  process.exit(1);
}, 120000).unref();

// A promise the client or the extension dropped is a failure of the session.
process.on('unhandledRejection', (err) => {
  process.stderr.write(`unhandled rejection: ${err.stack || err}\n${output.join('')}\n`);
  process.exit(1);
});
