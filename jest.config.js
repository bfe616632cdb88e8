/** Unit and in-process tests (real n8n runs separately: scripts/test-real-n8n.sh, scripts/test-queue-mode.sh, scripts/test-installer.sh, scripts/test-demo.sh). */
module.exports = require('./jest.suite')('test', {
	testPathIgnorePatterns: ['/node_modules/', '/test/real-n8n/', '/test/queue-mode/', '/test/installer/', '/test/demo/'],
	testTimeout: 30000,
});
