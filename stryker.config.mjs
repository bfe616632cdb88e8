/**
 * Mutation testing (docs/testing.md): StrykerJS makes one small change to the code at a time (a
 * mutant) and runs the tests that cover it; a mutant no test notices survives. Only the modules that
 * carry the node's guarantees are mutated, in four groups, each with the test files that exercise it.
 * scripts/test-mutation.sh (`npm run test:mutation`, a stage of `npm test`) runs the groups in turn,
 * naming one in AGENCY_CRM_MUTATION_GROUP: a group loads only its own test files, so that a mutant
 * Stryker cannot tie to a test (code run as a test file loads, or in a `beforeAll`) runs the group's
 * tests, not the whole suite's.
 */

const GROUPS = {
	// Contact → Create or Update's decision: which contact an item is (find.ts, decide.ts) and the rules
	// it matches by (matching.ts, names.ts; docs/contacts.md). The rest of actions/contact/ (what is
	// sent, created, read back) is not mutated yet: 500 more mutants, about 50 min on 2 cores. Not
	// test/inprocess/faults.test.ts: 300 creates against injected faults, 50 s a run.
	contact: {
		mutate: [
			'nodes/AgencyCrm/actions/contact/find.ts',
			'nodes/AgencyCrm/actions/contact/decide.ts',
			'nodes/AgencyCrm/catalogue/resources/contact/matching.ts',
			'nodes/AgencyCrm/catalogue/names.ts',
		],
		// The tests written for the contact policy: its examples, its generated cases (1,000 a
		// mutant) and the in-process runs of Create or Update, alone and with Concurrency; the options
		// and production rules of matching.ts, the names word by word, where each rule's evidence is
		// listed, and when a create may be sent again.
		tests: [
			'test/unit/contactDecision.test.ts',
			'test/unit/contactMatching.test.ts',
			'test/unit/contactNames.test.ts',
			'test/unit/names.test.ts',
			'test/unit/contacts.test.ts',
			'test/unit/contactSearch.test.ts',
			'test/unit/assumptions.test.ts',
			'test/unit/reliability.test.ts',
			'test/inprocess/contactPolicy.test.ts',
			'test/inprocess/contactData.test.ts',
			'test/inprocess/answerProfiles.test.ts',
			'test/inprocess/concurrency.test.ts',
		],
	},
	// Every list read a page at a time (nodes/shared/transport/pagination.ts).
	paging: {
		mutate: ['nodes/shared/transport/pagination.ts'],
		tests: [
			'test/unit/transport.test.ts',
			'test/unit/pagination.test.ts',
			'test/unit/numberedPages.test.ts',
			'test/unit/answers.test.ts',
			'test/unit/readOptions.test.ts',
			'test/unit/deletes.test.ts',
			'test/inprocess/answerProfiles.test.ts',
			'test/inprocess/endpointsVersion2.test.ts',
			'test/inprocess/calendar.test.ts',
		],
	},
	// Consent → Set confirmed by its read-back: consent.ts from consentRequest to confirmConsent, and in
	// writtenRecord.ts notConfirmed and the read-back that calls `confirm`. Line ranges: when these
	// functions move, move them (test/unit/mutationTesting.test.ts checks what they hold).
	consent: {
		mutate: [
			'nodes/AgencyCrm/catalogue/resources/consent.ts:17-74',
			'nodes/AgencyCrm/actions/writtenRecord.ts:65-82',
			'nodes/AgencyCrm/actions/writtenRecord.ts:171-186',
		],
		tests: [
			'test/unit/consent.test.ts',
			'test/unit/consentTurns.test.ts',
			'test/unit/answers.test.ts',
			'test/unit/guesses.test.ts',
			'test/unit/optionalDefaults.test.ts',
			'test/unit/rawOutput.test.ts',
			'test/unit/validation.test.ts',
			'test/inprocess/badInput.test.ts',
			'test/inprocess/endpoints.test.ts',
			'test/inprocess/endpointsVersion2.test.ts',
			'test/inprocess/extras.test.ts',
		],
	},
	// The trigger's decision of each delivery (decision.ts) and its one memory (memory/): what it has
	// taken, the watermark and the windows it owes. Not replay.test.ts: it waits in real time (23 s),
	// which makes a full run hours long.
	trigger: {
		mutate: ['nodes/AgencyCrmTrigger/decision.ts', 'nodes/AgencyCrmTrigger/memory/*.ts'],
		tests: [
			'test/unit/trigger/decision.test.ts',
			'test/unit/trigger/decisionModel.test.ts',
			'test/unit/trigger/deliveries.test.ts',
			'test/unit/trigger/memory.test.ts',
			'test/unit/trigger/memory/index.test.ts',
			'test/unit/trigger/memory/scope.test.ts',
			'test/unit/trigger/memory/store.test.ts',
			'test/unit/trigger/memory/watermark.test.ts',
		],
	},
};

export { GROUPS };

const name = process.env.AGENCY_CRM_MUTATION_GROUP;
const group = GROUPS[name];
if (!group)
	throw new Error(
		`AGENCY_CRM_MUTATION_GROUP names no group (${Object.keys(GROUPS).join(', ')}): run npm run test:mutation`,
	);

export default {
	testRunner: 'jest',
	coverageAnalysis: 'perTest',
	concurrency: 2,
	mutate: group.mutate,
	jest: {
		projectType: 'custom',
		configFile: 'jest.config.js',
		// findRelatedTests would find no test through the nodes' imports outside jest's roots.
		enableFindRelatedTests: false,
		config: {
			testMatch: group.tests.map((file) => `<rootDir>/${file}`),
			// Each mutant's run loads only the test files holding the tests that cover it.
			testSequencer: '<rootDir>/test/support/stryker/testSequencer.js',
			setupFilesAfterEnv: ['<rootDir>/test/support/stryker/recordTests.js'],
		},
	},
	thresholds: { high: 90, low: 85, break: 85 },
	// Only the mutants whose code or covering tests changed since the committed file run again.
	incremental: true,
	incrementalFile: `test/stryker-incremental/${name}.json`,
	ignorePatterns: ['dist', 'build', '.cache', 'reports', 'test/stryker-incremental'],
	reporters: ['clear-text', 'progress', 'html'],
	htmlReporter: { fileName: `reports/mutation/${name}.html` },
	tempDirName: '.stryker-tmp',
};
