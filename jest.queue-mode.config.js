/** n8n in queue mode with Redis and PostgreSQL (see scripts/test-queue-mode.sh, which builds and packs first). */
module.exports = require('./jest.suite')('test/queue-mode', { maxWorkers: 1, testTimeout: 120000 });
