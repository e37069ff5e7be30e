'use strict';
// The VS Code client of questc's language server: it starts `questc server` over
// stdio for quest files and restarts it when its settings change. Every language
// feature (diagnostics, hover, completion, rename, formatting, quick fixes, the map
// preview...) is the server's; colouring is the TextMate grammar's.
const vscode = require('vscode');
const { LanguageClient, TransportKind } = require('vscode-languageclient/node');
const { serverCommand, findProgram } = require('./server');

/** @type {LanguageClient | undefined} */
let client;
/** @type {vscode.OutputChannel | undefined} */
let output;
// Starting and stopping run one after the other: a setting saved twice in a row, or
// a deactivation during a start, must not stop a client that is still starting.
let queue = Promise.resolve();
function serially(task) {
  queue = queue.then(task, task);
  return queue;
}

function workspaceFolderPath() {
  const folders = vscode.workspace.workspaceFolders;
  return folders && folders.length ? folders[0].uri.fsPath : undefined;
}

async function startClient() {
  const config = vscode.workspace.getConfiguration('questc');
  let server;
  try {
    server = serverCommand(config.get('path'), config.get('serverArgs'), workspaceFolderPath());
  } catch (err) {
    offerSettings(`questc: ${err.message}`);
    return;
  }
  if (!findProgram(server.command)) {
    // One clear message instead of the client's "couldn't create connection".
    offerSettings(`questc: "${server.command}" was not found, so quests get no diagnostics, hover or completion. ` +
      'Install questc, or set questc.path to the questc program (for example ${workspaceFolder}/.venv/bin/questc).');
    return;
  }
  const executable = {
    command: server.command,
    args: server.args,
    transport: TransportKind.stdio,
    options: { cwd: workspaceFolderPath() },
  };
  client = new LanguageClient(
    'questc',
    'questc',
    { run: executable, debug: executable },
    {
      documentSelector: [
        { scheme: 'file', language: 'quest' },
        { scheme: 'untitled', language: 'quest' },
      ],
      // The server finds questc.toml / pyproject.toml from each quest's folder itself,
      // and reads them again when they change: no settings or file events to pass on.
      outputChannel: output,
    },
  );
  try {
    await client.start();
  } catch (err) {
    offerSettings(`questc: could not start "${server.command} ${server.args.join(' ')}" (${err.message || err}). ` +
      'Install questc or set questc.path to it.');
  }
}

// Not awaited: the message's promise settles only when the user answers it, and the
// start/stop queue must not wait for that.
function offerSettings(message) {
  vscode.window.showErrorMessage(message, 'Open settings').then((action) => {
    if (action === 'Open settings') {
      vscode.commands.executeCommand('workbench.action.openSettings', 'questc.path');
    }
  });
}

async function stopClient() {
  const running = client;
  client = undefined;
  if (running && running.needsStop()) {
    try {
      await running.stop();
    } catch (err) {
      output.appendLine(`questc: stopping the server: ${err.message || err}`);
    }
  }
}

// The map preview is the server's (`questc.preview`): it serves the page, opens it in the
// browser (window/showDocument) and answers its address. vscode-languageclient registers
// the server's own command under its name, so the editor's button has a name of its own.
async function openPreview() {
  const editor = vscode.window.activeTextEditor;
  const document = editor && editor.document.languageId === 'quest' ? editor.document : undefined;
  if (!client || !client.isRunning()) {
    vscode.window.showErrorMessage('questc: the language server is not running, so there is no preview. ' +
      'See **Quest: Show the questc server\'s output**.');
    return undefined;
  }
  try {
    return await client.sendRequest('workspace/executeCommand', {
      command: 'questc.preview',
      arguments: document ? [document.uri.toString()] : [],
    });
  } catch (err) {
    vscode.window.showErrorMessage(`questc: ${err.message || err}`);
    return undefined;
  }
}

function restartClient() {
  return serially(async () => {
    await stopClient();
    await startClient();
  });
}

/** @param {vscode.ExtensionContext} context */
async function activate(context) {
  output = vscode.window.createOutputChannel('questc');
  context.subscriptions.push(
    output,
    vscode.commands.registerCommand('questc.restartServer', restartClient),
    vscode.commands.registerCommand('questc.showOutput', () => output.show()),
    vscode.commands.registerCommand('questc.openPreview', openPreview),
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (event.affectsConfiguration('questc.path') || event.affectsConfiguration('questc.serverArgs')) {
        restartClient();
      }
    }),
  );
  await serially(startClient);
}

function deactivate() {
  return serially(stopClient);
}

module.exports = { activate, deactivate };
