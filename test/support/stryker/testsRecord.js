/**
 * Which tests each test file holds, as Stryker's first run (no mutant active) finds them: the file
 * lives in Stryker's sandbox (the working directory of its test runners), one line per test file.
 * Stryker's jest runner loads every test file for every mutant and runs only the tests that cover
 * it (by name); this record lets testSequencer.js load only the files holding those tests.
 */
const fs = require('fs');
const path = require('path');

const RECORD = path.join(process.cwd(), '.stryker-tests-by-file.ndjson');

/** Whether a mutant is active: Stryker sets it for each mutant's run, never for its first run. */
const mutantActive = () => process.env.__STRYKER_ACTIVE_MUTANT__ !== undefined;

function noteTests(file, names) {
	fs.appendFileSync(RECORD, `${JSON.stringify({ file, names })}\n`);
}

/** Test file → the full names of its tests; empty when the first run recorded nothing. */
function testsByFile() {
	if (!fs.existsSync(RECORD)) return new Map();
	const lines = fs.readFileSync(RECORD, 'utf8').split('\n').filter(Boolean);
	return new Map(lines.map((line) => JSON.parse(line)).map(({ file, names }) => [file, names]));
}

module.exports = { mutantActive, noteTests, testsByFile };
