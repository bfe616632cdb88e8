import { execFileSync } from 'node:child_process';
import path from 'node:path';

/**
 * Issues 20 (point 2) and 29 (point 8): the repository lint keeps the directions of the code (eslint.repo.config.mjs,
 * `import-x/no-restricted-paths`). Each zone gets one import it forbids and, beside it, one it
 * allows, linted as a file at that place in the tree (the file itself need not exist; what it
 * imports does). A zone that stopped working, or one that forbade too much, fails here.
 * Issue 34 (point 3): the cycle rule (`repo/no-cycle`) fails on a circle planted into the tree, a
 * type-only one included, by a file linted in the place of one that stands.
 */

const ROOT = path.join(__dirname, '../..');

interface Case {
	zone: string;
	/** Where the linted file stands, from the repository root. */
	file: string;
	/** An import the zone forbids (a type-only one where the zone must cover those too). */
	forbidden: string;
	/** An import from the same file that no zone forbids. */
	allowed: string;
}

const CASES: Case[] = [
	{
		zone: 'nodes/ import nothing outside the package: no test, sandbox or tool code',
		file: 'nodes/AgencyCrm/actions/probe.ts',
		forbidden: "import { waitFor } from '../../../test/support/waitFor';",
		allowed: "import { NodeOperationError } from 'n8n-workflow';",
	},
	{
		zone: 'nodes/ import no installed package but n8n-workflow and luxon (a dev dependency is not there in n8n)',
		file: 'nodes/AgencyCrm/catalogue/probe.ts',
		forbidden: "import axios from 'axios';",
		allowed: "import { DateTime } from 'luxon';",
	},
	{
		zone: "nodes/ import no file of the repository's root (package.json would be copied into dist/)",
		file: 'nodes/shared/probe.ts',
		forbidden: "import { version } from '../../package.json';",
		allowed: "import { CREDENTIAL_TYPE } from '../../credentials/contract';",
	},
	{
		zone: 'credentials/ import nothing outside the package (type imports too)',
		file: 'credentials/probe.ts',
		forbidden: "import type { SandboxOptions } from '../sandbox/index';",
		allowed: "import type { IDataObject } from 'n8n-workflow';",
	},
	{
		zone: 'nodes/shared/ imports neither node (type imports too): the action node',
		file: 'nodes/shared/probe.ts',
		forbidden: "import type { Endpoint } from '../AgencyCrm/catalogue/types';",
		allowed: "import type { ApiRequest } from './transport';",
	},
	{
		zone: 'nodes/shared/ imports neither node: the trigger',
		file: 'nodes/shared/transport/probe.ts',
		forbidden: "import { AgencyCrmTrigger } from '../../AgencyCrmTrigger/AgencyCrmTrigger.node';",
		allowed: "import { EVENT_OPTIONS } from '../events';",
	},
	{
		zone: "the trigger imports none of the action node's own code (type imports too), only the catalogue",
		file: 'nodes/AgencyCrmTrigger/probe.ts',
		forbidden: "import type { ItemRun } from '../AgencyCrm/actions/itemRun';",
		allowed: "import { requestOf } from '../AgencyCrm/catalogue/requests';",
	},
	{
		zone: "the Answer node imports none of the action node's own code",
		file: 'nodes/AgencyCrmAnswer/probe.ts',
		forbidden: "import { loadOptions } from '../AgencyCrm/methods/loadOptions';",
		allowed: "import { EVENT_OPTIONS } from '../shared/events';",
	},
	{
		zone: 'transport reads credentials/ only through its contract',
		file: 'nodes/shared/transport/probe.ts',
		forbidden: "import { sharedExchange } from '../../../credentials/sharedExchanges';",
		allowed: "import { CREDENTIAL_TYPE } from '../../../credentials/contract';",
	},
	{
		zone: 'the catalogue reads no action, method or trigger (type imports too)',
		file: 'nodes/AgencyCrm/catalogue/probe.ts',
		forbidden: "import type { CustomOperation } from '../actions/customOperations';",
		allowed: "import type { Endpoint } from './types';",
	},
	{
		zone: 'credentials/ never imports nodes/',
		file: 'credentials/probe.ts',
		forbidden: "import { EVENT_OPTIONS } from '../nodes/shared/events';",
		allowed: "import { CREDENTIAL_TYPE } from './contract';",
	},
	{
		zone: 'the sandbox never imports nodes/',
		file: 'sandbox/probe.ts',
		forbidden: "import { EVENT_OPTIONS } from '../nodes/shared/events';",
		allowed: "import { createSandbox } from './index';",
	},
	{
		zone: 'bench/ reuses test code only from test/support/',
		file: 'bench/probe.ts',
		forbidden: "import type { SandboxTest } from '../test/sandbox/console.test';",
		allowed: "import { waitFor } from '../test/support/waitFor';",
	},
	{
		zone: 'scripts/ reuse test code only from test/support/',
		file: 'scripts/probe.ts',
		forbidden: "import type { SandboxTest } from '../test/unit/assumptions.test';",
		allowed: "import { waitFor } from '../test/support/waitFor';",
	},
	{
		zone: 'tools/ never imports a test',
		file: 'tools/probe.ts',
		forbidden: "import { waitFor } from '../test/support/waitFor';",
		allowed: "import { stillRuns } from './processes';",
	},
	{
		zone: 'a test tier shares code only through test/support/',
		file: 'test/unit/probe.test.ts',
		forbidden: "import type { SandboxTest } from '../sandbox/console.test';",
		allowed: "import { waitFor } from '../support/waitFor';",
	},
	{
		zone: 'test/support/ never imports a tier',
		file: 'test/support/probe.ts',
		forbidden: "import type { SandboxTest } from '../unit/assumptions.test';",
		allowed: "import { waitFor } from './waitFor';",
	},
];

/** The rules broken by `source` linted as `file`, by the repository config, as `npm run lint` runs it. */
function brokenRules(cases: Array<{ file: string; source: string }>): string[][] {
	const script = `
		const { ESLint } = require('eslint');
		(async () => {
			const eslint = new ESLint({ overrideConfigFile: 'eslint.repo.config.mjs' });
			const cases = JSON.parse(process.argv[1]);
			const results = [];
			for (const { file, source } of cases) {
				const [result] = await eslint.lintText(source, { filePath: file });
				results.push(result.messages.map((message) => message.ruleId + ': ' + message.message));
			}
			process.stdout.write(JSON.stringify(results));
		})();`;
	const output = execFileSync(process.execPath, ['-e', script, JSON.stringify(cases)], {
		cwd: ROOT,
		encoding: 'utf8',
	});
	return JSON.parse(output) as string[][];
}

const restricted = (messages: string[]) =>
	messages.filter((message) => message.startsWith('import-x/no-restricted-paths'));

const cycles = (messages: string[]) => messages.filter((message) => message.startsWith('repo/no-cycle'));

interface Circle {
	name: string;
	/** The file of the tree the probe is linted as, in place of its content. */
	file: string;
	source: string;
	/** Whether the probe closes a circle with the files on disk. */
	circle: boolean;
}

const CIRCLES: Circle[] = [
	{
		name: 'a type-only import that closes a circle (pagination.ts imports types.ts)',
		file: 'nodes/shared/transport/types.ts',
		source: "import type { PaginationMode } from './pagination';\nexport type Probe = PaginationMode;\n",
		circle: true,
	},
	{
		name: 'a type-only re-export that closes a circle (the criteria import catalogue/types.ts)',
		file: 'nodes/AgencyCrm/catalogue/types.ts',
		source: "export type { CriterionRow } from './criteria/field';\n",
		circle: true,
	},
	{
		name: 'an import of a value that closes a circle (pagination.ts imports request.ts)',
		file: 'nodes/shared/transport/request.ts',
		source: "import { paginate } from './pagination';\nexport const probe = paginate;\n",
		circle: true,
	},
	{
		name: 'an import down the tree, which closes none',
		file: 'nodes/shared/transport/pagination.ts',
		source: "import type { ApiRequest } from './types';\nexport type Probe = ApiRequest;\n",
		circle: false,
	},
];

describe('the boundaries of eslint.repo.config.mjs', () => {
	let results: Array<{ forbidden: string[]; allowed: string[] }>;

	beforeAll(() => {
		// Each probe uses what it imports, so that no other rule than the zone's speaks.
		const probe = (file: string, line: string) => ({ file, source: `${line}\nexport type Probe = unknown;\n` });
		const linted = brokenRules(CASES.flatMap((c) => [probe(c.file, c.forbidden), probe(c.file, c.allowed)]));
		results = CASES.map((_, index) => ({ forbidden: linted[2 * index], allowed: linted[2 * index + 1] }));
	}, 120_000);

	it.each(CASES.map((c, index) => [c.zone, index] as const))('%s', (_, index) => {
		expect(restricted(results[index].forbidden)).toHaveLength(1);
		expect(restricted(results[index].allowed)).toEqual([]);
	});
});

describe('the cycle rule of eslint.repo.config.mjs counts type-only imports', () => {
	let results: string[][];

	beforeAll(() => {
		results = brokenRules(CIRCLES.map(({ file, source }) => ({ file, source })));
	}, 120_000);

	it.each(CIRCLES.map((c, index) => [c.name, index] as const))('%s', (_, index) => {
		expect(cycles(results[index])).toHaveLength(CIRCLES[index].circle ? 1 : 0);
	});
});
