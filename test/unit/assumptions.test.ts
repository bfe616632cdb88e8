import { readFileSync } from 'node:fs';
import path from 'node:path';

import { ENDPOINTS } from '../../nodes/AgencyCrm/catalogue';
import { maxPageSizeOf } from '../../nodes/AgencyCrm/catalogue/fields';
import type { RuleSource } from '../../nodes/AgencyCrm/catalogue/types';

/** Every source a catalogue entry names: its fields' rules, value lists and requirements, its checks and page size. */
function sourcesOf(): RuleSource[] {
	return ENDPOINTS.flatMap((endpoint) => [
		...endpoint.fields.flatMap((field) => [
			...(field.rules ?? []).map((rule) => rule.source),
			...(field.values ? [field.values] : []),
			...(field.required ? [field.required] : []),
		]),
		...(endpoint.checks ?? []).map((check) => check.source),
		...(endpoint.pagination ? [maxPageSizeOf(endpoint).source] : []),
	]);
}

const assumptions = readFileSync(path.join(__dirname, '../../docs/assumptions.md'), 'utf8');

test('every guess the catalogue makes is listed in docs/assumptions.md, word for word', () => {
	const guesses = [...new Set(sourcesOf().flatMap((source) => ('guess' in source ? [source.guess] : [])))];
	expect(guesses.length).toBeGreaterThan(15);
	expect(guesses.filter((topic) => !assumptions.includes(`\`${topic}\``))).toEqual([]);
});

test('every rule that blocks quotes its authority: a section of the spec, or why the node cannot send it', () => {
	for (const source of sourcesOf()) {
		if ('spec' in source) expect(source.spec).toMatch(/^section \d/);
		if ('node' in source) expect(source.node.length).toBeGreaterThan(10);
	}
});
