'use strict';
// node --test: how the extension turns its settings into the server's command line.
const test = require('node:test');
const assert = require('node:assert');
const os = require('os');
const path = require('path');
const { serverCommand } = require('../server');

test('the default is questc server, looked up on PATH', () => {
  assert.deepStrictEqual(serverCommand(undefined, undefined, undefined), { command: 'questc', args: ['server'] });
  assert.deepStrictEqual(serverCommand('  ', [], '/w'), { command: 'questc', args: ['server'] });
  assert.deepStrictEqual(serverCommand('questc', [], '/w'), { command: 'questc', args: ['server'] });
});

test('serverArgs follow the server subcommand', () => {
  assert.deepStrictEqual(serverCommand('questc', ['--log', 'debug'], undefined).args, ['server', '--log', 'debug']);
  assert.deepStrictEqual(serverCommand('questc', 'not a list', undefined).args, ['server']);
});

test('${workspaceFolder} and ~ are expanded', () => {
  assert.strictEqual(serverCommand('${workspaceFolder}/.venv/bin/questc', [], '/w').command, '/w/.venv/bin/questc');
  assert.strictEqual(serverCommand('~/bin/questc', [], '/w').command, path.join(os.homedir(), 'bin/questc'));
  assert.throws(() => serverCommand('${workspaceFolder}/questc', [], undefined), /no folder is open/);
});

test('a relative path with a folder is taken from the workspace folder; absolute paths are kept', () => {
  assert.strictEqual(serverCommand('.venv/bin/questc', [], '/w').command, path.join('/w', '.venv/bin/questc'));
  assert.strictEqual(serverCommand('/opt/questc/bin/questc', [], '/w').command, '/opt/questc/bin/questc');
});

test('findProgram finds a program on PATH or by its path, and nothing else', () => {
  const fs = require('fs');
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'questc-find-'));
  const program = path.join(folder, 'questc');
  fs.writeFileSync(program, '#!/bin/sh\n', { mode: 0o755 });
  fs.writeFileSync(path.join(folder, 'notes'), 'not a program', { mode: 0o644 });
  const { findProgram } = require('../server');
  const env = { PATH: ['/nonexistent', folder].join(path.delimiter) };
  if (process.platform !== 'win32') {
    assert.strictEqual(findProgram('questc', env), program);
    assert.strictEqual(findProgram(program, { PATH: '' }), program);
    assert.strictEqual(findProgram('notes', env), undefined);
  }
  assert.strictEqual(findProgram('no-such-questc', env), undefined);
  assert.strictEqual(findProgram(path.join(folder, 'missing'), env), undefined);
  assert.strictEqual(findProgram('questc', { PATH: '' }), undefined);
  fs.rmSync(folder, { recursive: true });
});
