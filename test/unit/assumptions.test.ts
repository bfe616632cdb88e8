import { readFileSync } from 'node:fs';
import path from 'node:path';

import { ENDPOINTS } from '../../nodes/AgencyCrm/catalogue';
import { RESOLUTION_SOURCES } from '../../nodes/AgencyCrm/catalogue/criteria/resolve';
import { OLD_FETCHES } from '../../nodes/AgencyCrm/catalogue/resources/product/search';
import { maxPageSizeOf } from '../../nodes/AgencyCrm/catalogue/fields';
import type { RuleSource } from '../../nodes/AgencyCrm/catalogue/types';

/**
 * Every source a catalogue entry names: its fields' rules, value lists and requirements, its checks and
 * page size; and those judged outside them: resolving criteria against the site's referential, and what
 * version 1's Related Data is sent as.
 */
function sourcesOf(): RuleSource[] {
	return [
		...RESOLUTION_SOURCES,
		OLD_FETCHES,
		...ENDPOINTS.flatMap((endpoint) => [
			...endpoint.fields.flatMap((field) => [
				...(field.rules ?? []).map((rule) => rule.source),
				...(field.values ? [field.values] : []),
				...(field.required ? [field.required] : []),
			]),
			...(endpoint.checks ?? []).map((check) => check.source),
			...(endpoint.pagination ? [maxPageSizeOf(endpoint).source] : []),
		]),
	];
}

const assumptions = readFileSync(path.join(__dirname, '../../docs/assumptions.md'), 'utf8');

test('every guess the catalogue makes is listed in docs/assumptions.md, word for word', () => {
	const guesses = [...new Set(sourcesOf().flatMap((source) => ('guess' in source ? [source.guess] : [])))];
	expect(guesses.length).toBeGreaterThan(15);
	expect(guesses.filter((topic) => !assumptions.includes(`\`${topic}\``))).toEqual([]);
});

test('every rule taken from production evidence is listed in docs/assumptions.md, word for word, under its heading', () => {
	const section = /## Production evidence[\s\S]*?(\n## |$)/.exec(assumptions)?.[0] ?? '';
	const topics = [...new Set(sourcesOf().flatMap((source) => ('evidence' in source ? [source.evidence] : [])))];
	expect(topics.filter((topic) => !section.includes(`\`${topic}\``))).toEqual([]);
});

test('every rule that blocks quotes its authority: a section of the spec, or why the node cannot send it', () => {
	for (const source of sourcesOf()) {
		if ('spec' in source) expect(source.spec).toMatch(/^section \d/);
		if ('node' in source) expect(source.node.length).toBeGreaterThan(10);
		if ('evidence' in source) expect(source.evidence.length).toBeGreaterThan(10);
	}
});

/**
 * Issue 17: each case of "What the node does with each answer" names the tests that prove it, as a file and
 * the words of a test's title (an ellipsis stands for words left out): every file exists, and holds them.
 */
test('every answer case in docs/assumptions.md names tests that exist', () => {
	const section = /## What the node does with each answer[\s\S]*?\n## /.exec(assumptions)?.[0] ?? '';
	const cases = section.split('\n- ').slice(1);
	expect(cases.length).toBeGreaterThan(8);
	const unproven = cases.flatMap((text) => {
		const flat = text.replace(/\s+/g, ' ');
		const named: string[] = [];
		let file: string | undefined;
		for (const [, reference, title] of flat.matchAll(/`(test\/[\w/.-]+\.test\.ts)`|"([^"]+)"/g)) {
			if (reference) {
				file = readFileSync(path.join(__dirname, '../..', reference), 'utf8').replace(/\s+/g, ' ');
				named.push(reference);
			} else if (file !== undefined) {
				const missing = title
					.split('…')
					.map((words) => words.trim())
					.filter((words) => words && !file!.includes(words));
				if (missing.length) named.push(`MISSING "${missing.join('", "')}"`);
			}
		}
		const problems = named.filter((entry) => entry.startsWith('MISSING'));
		return named.length === 0 ? [`no test named: ${flat.slice(0, 60)}`] : problems;
	});
	expect(unproven).toEqual([]);
});
