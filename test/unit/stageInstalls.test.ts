import { readFileSync, readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import ts from 'typescript';

/**
 * Issue 34 (point 5): every stage installs what it uses. A stage (a script of scripts/, or a command of
 * package.json) that runs code starting a browser, a database or a registry calls that thing's
 * ensure-* script before it runs that code: in a fresh clone on a machine without them, the real-n8n
 * stage's editor tests once failed because only later stages installed Chromium. What a stage runs
 * is read from it (jest configurations, `node build/….js`, `npm run …`), and what that code starts
 * from its files and every file they import.
 */

const ROOT = path.join(__dirname, '../..');

/** What a stage may start, how the code that starts it is recognised, and the script that installs it. */
const STARTS = [
	{ what: 'a browser', starts: /from 'playwright-core'/, ensure: 'scripts/ensure-chromium.sh' },
	{ what: 'a database', starts: /'redis-server'|'initdb'/, ensure: 'scripts/ensure-queue-services.sh' },
	{ what: 'a registry', starts: /verdaccio\/bin\/verdaccio/, ensure: 'scripts/ensure-verdaccio.sh' },
];

const read = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');

/** The code of the files a stage runs; this file, which spells the patterns above, starts nothing. */
const codeOf = (files: Iterable<string>) =>
	[...files].filter((file) => file !== path.relative(ROOT, __filename)).map(read);

/** The repository's TypeScript files a file imports, type imports included. */
function importsOf(file: string): string[] {
	const from = path.join(ROOT, file);
	return ts.preProcessFile(read(file), true, true).importedFiles.flatMap(({ fileName }) => {
		const { resolvedModule } = ts.resolveModuleName(fileName, from, {}, ts.sys);
		if (!resolvedModule || resolvedModule.isExternalLibraryImport || !resolvedModule.resolvedFileName.endsWith('.ts'))
			return [];
		return [path.relative(ROOT, resolvedModule.resolvedFileName)];
	});
}

/** The files and every file they import, transitively. */
function closureOf(entries: string[]): Set<string> {
	const seen = new Set<string>();
	const next = [...entries];
	for (let file = next.pop(); file !== undefined; file = next.pop()) {
		if (seen.has(file)) continue;
		seen.add(file);
		next.push(...importsOf(file));
	}
	return seen;
}

function filesUnder(dir: string): string[] {
	return readdirSync(path.join(ROOT, dir)).flatMap((name) => {
		const file = path.join(dir, name);
		return statSync(path.join(ROOT, file)).isDirectory() ? filesUnder(file) : [file];
	});
}

/** The files a jest configuration runs: its tests (as its roots and ignore patterns say) and its global setup. */
function jestFiles(config: string): string[] {
	const options = createRequire(__filename)(path.join(ROOT, config)) as {
		roots: string[];
		testPathIgnorePatterns?: string[];
		globalSetup?: string;
		globalTeardown?: string;
	};
	const local = (entry: string) => entry.replace('<rootDir>/', '');
	const ignored = (options.testPathIgnorePatterns ?? []).map((pattern) => new RegExp(pattern));
	const tests = options.roots
		.flatMap((root) => filesUnder(local(root)))
		.filter((file) => file.endsWith('.test.ts') && !ignored.some((pattern) => pattern.test(`/${file}`)));
	return [...tests, ...[options.globalSetup, options.globalTeardown].flatMap((entry) => (entry ? [local(entry)] : []))];
}

const SCRIPTS = JSON.parse(read('package.json')).scripts as Record<string, string>;

/** One step of a stage, in order: an ensure-* script called, or the TypeScript files it runs. */
type Step = { ensure: string } | { runs: string[]; line: string };

function stepsOf(command: string): Step[] {
	const ensure = /bash scripts\/(ensure-[\w-]+\.sh)/.exec(command);
	if (ensure) return [{ ensure: `scripts/${ensure[1]}` }];
	const config = /(?:jest-per-n8n\.sh \S+|jest --config) (jest[\w.-]*\.config\.js)/.exec(command);
	if (config) return [{ runs: jestFiles(config[1]), line: command }];
	const built = /node build\/([\w/.-]+)\.js/.exec(command);
	if (built) return [{ runs: [`${built[1]}.ts`], line: command }];
	const npm = /npm run ([\w:-]+)/.exec(command);
	return npm && SCRIPTS[npm[1]] ? SCRIPTS[npm[1]].split('&&').flatMap(stepsOf) : [];
}

/** The commands of a script, comments left out (the scripts it runs with `bash` are stages of their own). */
const commandsOf = (script: string) =>
	read(script)
		.split('\n')
		.filter((line) => !/^\s*#/.test(line));

const STAGES = [
	...readdirSync(path.join(ROOT, 'scripts'))
		.filter((name) => name.endsWith('.sh'))
		.map((name) => ({ stage: `scripts/${name}`, commands: commandsOf(`scripts/${name}`) })),
	...Object.entries(SCRIPTS).map(([name, command]) => ({ stage: `npm run ${name}`, commands: command.split('&&') })),
];

/** What each step of a stage starts without having called its ensure-* script before. */
function missingInstalls(commands: string[]): string[] {
	const ensured = new Set<string>();
	return commands.flatMap(stepsOf).flatMap((step) => {
		if ('ensure' in step) {
			ensured.add(step.ensure);
			return [];
		}
		const code = codeOf(closureOf(step.runs));
		return STARTS.filter(({ starts, ensure }) => code.some((text) => starts.test(text)) && !ensured.has(ensure)).map(
			({ what, ensure }) => `${step.line.trim()} starts ${what} before ${ensure}`,
		);
	});
}

test('the stages that start a browser, a database or a registry are found (the check reads what they run)', () => {
	const starting = STAGES.filter(({ commands }) =>
		commands
			.flatMap(stepsOf)
			.some((step) => 'runs' in step && codeOf(closureOf(step.runs)).some((text) => STARTS[0].starts.test(text))),
	).map(({ stage }) => stage);
	expect(starting).toEqual(
		expect.arrayContaining(['scripts/test-real-n8n.sh', 'scripts/test-installer.sh', 'scripts/test-demo.sh']),
	);
});

test.each(STAGES.map(({ stage, commands }) => [stage, commands] as const))(
	'%s calls the ensure-* script of what it starts first',
	(_, commands) => {
		expect(missingInstalls(commands)).toEqual([]);
	},
);
