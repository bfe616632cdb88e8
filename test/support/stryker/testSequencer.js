/**
 * The test sequencer of the jest config in stryker.config.mjs. For a mutant's run Stryker asks jest for the tests
 * that cover the mutant by name (`testNamePattern`), and jest loads every test file to find them:
 * seconds per mutant. This keeps only the files that hold one of those tests (testsRecord.js), as
 * jest matches names (the pattern, case-insensitive, on the full name). A file the record does not
 * know is kept, and so is every file when none would be.
 */
const Sequencer = require('@jest/test-sequencer').default;

const { mutantActive, testsByFile } = require('./testsRecord');

class MutantTestSequencer extends Sequencer {
	constructor(options) {
		super(options);
		this.namePattern = options.globalConfig.testNamePattern;
	}

	async sort(tests) {
		const sorted = await super.sort(tests);
		if (!mutantActive() || !this.namePattern) return sorted;
		const pattern = new RegExp(this.namePattern, 'i');
		const record = testsByFile();
		const holding = sorted.filter((test) => {
			const names = record.get(test.path);
			return names === undefined || names.some((name) => pattern.test(name));
		});
		return holding.length > 0 ? holding : sorted;
	}
}

module.exports = MutantTestSequencer;
