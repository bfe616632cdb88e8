/** `npm start` run as a user runs it, in a copy of the repository (see scripts/test-demo.sh). */
module.exports = require('./jest.suite')('test/demo', { maxWorkers: 1, testTimeout: 600000 });
