import { readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * Issue 39 (point 6): the consent group of stryker.config.mjs mutates parts of two files by their line
 * ranges. When code moves, a range would silently mutate other code, or miss the code that confirms a
 * consent: each range must still begin and end where the code it names does.
 */

const ROOT = path.join(__dirname, '../..');
const config = readFileSync(path.join(ROOT, 'stryker.config.mjs'), 'utf8');

/** Each range the config names: the first and last lines it must still cover. */
const EXPECTED: Record<string, { first: string; last: string }> = {
	'nodes/AgencyCrm/catalogue/resources/consent.ts': {
		first: 'function consentRequest(request: PreparedRequest): PreparedRequest {',
		last: '}',
	},
	'nodes/AgencyCrm/actions/writtenRecord.ts#1': { first: 'function notConfirmed(', last: '}' },
	'nodes/AgencyCrm/actions/writtenRecord.ts#2': {
		first: '} catch (error) {',
		last: 'return { ...output, confirmed: true, ...shown.said };',
	},
};

const ranges = [...config.matchAll(/'([\w/.]+\.ts):(\d+)-(\d+)'/g)].map(([, file, from, to]) => ({
	file,
	from: Number(from),
	to: Number(to),
}));

test('the config names three line ranges, in the two consent files', () => {
	expect(ranges.map(({ file }) => file)).toEqual([
		'nodes/AgencyCrm/catalogue/resources/consent.ts',
		'nodes/AgencyCrm/actions/writtenRecord.ts',
		'nodes/AgencyCrm/actions/writtenRecord.ts',
	]);
});

test.each(ranges.map((range, index) => [index, range] as const))(
	'range %i begins and ends where its code does',
	(_index, { file, from, to }) => {
		const seen = ranges.filter((range) => range.file === file);
		const key = seen.length > 1 ? `${file}#${seen.findIndex((range) => range.from === from) + 1}` : file;
		const lines = readFileSync(path.join(ROOT, file), 'utf8').split('\n');
		expect(lines[from - 1].trim()).toBe(EXPECTED[key].first);
		expect(lines[to - 1].trim()).toBe(EXPECTED[key].last);
		if (file.endsWith('consent.ts')) expect(lines.slice(from - 1, to).join('\n')).toContain('function confirmConsent(');
	},
);
