/**
 * setupFilesAfterEnv of the jest config in stryker.config.mjs: on Stryker's first run, notes the full name of every
 * test of this file (the name Stryker then asks for) in the record testSequencer.js reads.
 */
const { mutantActive, noteTests } = require('./testsRecord');

if (!mutantActive()) {
	const names = new Set();
	beforeEach(() => names.add(expect.getState().currentTestName));
	afterAll(() => noteTests(expect.getState().testPath, [...names]));
}
