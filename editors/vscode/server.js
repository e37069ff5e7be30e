'use strict';
// How the extension starts `questc server`: kept apart from extension.js so that
// node can test it without VS Code (test/server.test.js).
const fs = require('fs');
const os = require('os');
const path = require('path');

/**
 * The program and arguments for the language server.
 * @param {string | undefined} questcPath the `questc.path` setting
 * @param {string[] | undefined} serverArgs the `questc.serverArgs` setting
 * @param {string | undefined} workspaceFolder the first workspace folder's path, if any
 * @returns {{command: string, args: string[]}}
 */
function serverCommand(questcPath, serverArgs, workspaceFolder) {
  let command = (questcPath || '').trim() || 'questc';
  if (command.includes('${workspaceFolder}')) {
    if (!workspaceFolder) {
      throw new Error(`questc.path "${command}" names \${workspaceFolder}, but no folder is open`);
    }
    command = command.split('${workspaceFolder}').join(workspaceFolder);
  }
  if (command === '~' || command.startsWith('~/')) {
    command = path.join(os.homedir(), command.slice(1));
  }
  // A relative path with a folder in it (".venv/bin/questc") is taken from the
  // workspace folder, as a terminal opened there would; a bare name is looked up on PATH.
  if (!path.isAbsolute(command) && /[\\/]/.test(command) && workspaceFolder) {
    command = path.join(workspaceFolder, command);
  }
  const extra = Array.isArray(serverArgs) ? serverArgs.map(String) : [];
  return { command, args: ['server', ...extra] };
}

/**
 * Where `command` would be run from: itself if it names a folder, else the first match
 * on PATH (with PATHEXT's endings on Windows); undefined if there is no such program.
 * @param {string} command
 * @param {NodeJS.ProcessEnv} env
 * @returns {string | undefined}
 */
function findProgram(command, env = process.env) {
  const windows = process.platform === 'win32';
  const endings = windows ? ['', ...(env.PATHEXT || '.EXE;.CMD;.BAT;.COM').split(';')] : [''];
  const runnable = (file) => {
    try {
      fs.accessSync(file, windows ? fs.constants.F_OK : fs.constants.X_OK);
      return fs.statSync(file).isFile();
    } catch {
      return false;
    }
  };
  const folders = /[\\/]/.test(command) ? [''] : (env.PATH || env.Path || '').split(path.delimiter).filter(Boolean);
  for (const folder of folders) {
    for (const ending of endings) {
      const file = folder ? path.join(folder, command + ending) : command + ending;
      if (runnable(file)) return file;
    }
  }
  return undefined;
}

module.exports = { serverCommand, findProgram };
