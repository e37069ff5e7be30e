'use strict';
// Tokenises quest text with VS Code's own TextMate engine (vscode-textmate on the
// Oniguruma regex library), for tests/test_editor_grammar.py.
// stdin: {"texts": ["...", ...]}; stdout: for each text, the scopes of every
// character (outermost first, source.quest left out) as [[...], ...]; a line's
// newline has no entry of its own.
const fs = require('fs');
const path = require('path');
const vsctm = require('vscode-textmate');
const oniguruma = require('vscode-oniguruma');

const GRAMMAR = path.join(__dirname, '..', 'syntaxes', 'quest.tmLanguage.json');

async function main() {
  const wasm = fs.readFileSync(require.resolve('vscode-oniguruma/release/onig.wasm'));
  await oniguruma.loadWASM(wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength));
  const registry = new vsctm.Registry({
    onigLib: Promise.resolve({
      createOnigScanner: (patterns) => new oniguruma.OnigScanner(patterns),
      createOnigString: (s) => new oniguruma.OnigString(s),
    }),
    loadGrammar: async (scopeName) =>
      scopeName === 'source.quest'
        ? vsctm.parseRawGrammar(fs.readFileSync(GRAMMAR, 'utf8'), GRAMMAR)
        : null,
  });
  const grammar = await registry.loadGrammar('source.quest');
  const { texts } = JSON.parse(fs.readFileSync(0, 'utf8'));
  const out = texts.map((text) => {
    let stack = vsctm.INITIAL;
    const scopes = [];
    for (const line of text.split('\n')) {
      const result = grammar.tokenizeLine(line, stack, 0);
      if (result.stoppedEarly) throw new Error('tokenizing stopped early');
      for (const token of result.tokens) {
        const names = token.scopes.slice(1);
        for (let k = token.startIndex; k < Math.min(token.endIndex, line.length); k++) scopes.push(names);
      }
      stack = result.ruleStack;
    }
    return scopes;
  });
  process.stdout.write(JSON.stringify(out));
}

main().catch((err) => {
  process.stderr.write(String(err && err.stack ? err.stack : err) + '\n');
  process.exit(1);
});
