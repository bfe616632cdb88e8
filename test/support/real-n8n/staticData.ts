import { execFileSync } from 'node:child_process';
import path from 'node:path';

import type { N8nInstance } from '../../../tools/n8n/launcher';

/**
 * Makes the trigger's memory of a workflow older in n8n's own database, while n8n is stopped: n8n's
 * clock cannot be moved, so what a test says happened `byMs` earlier is written so. The script runs
 * on n8n's Node with n8n's own sqlite3 (its binding is built for that Node).
 */
export function ageTriggerMemory(instance: N8nInstance, workflowId: string, nodeName: string, byMs: number): void {
	const database = path.join(instance.userFolder, '.n8n/database.sqlite');
	const script = `
const sqlite3 = require('module').createRequire(process.argv[1])('sqlite3');
const [, , file, id, node, by] = process.argv;
const db = new sqlite3.Database(file);
db.get('SELECT staticData FROM workflow_entity WHERE id = ?', [id], (error, row) => {
	if (error || !row) throw error ?? new Error('no workflow ' + id);
	const data = JSON.parse(row.staticData);
	const memory = data['node:' + node];
	memory.memory = String(memory.memory).replace(/ (\\w+)$/gm, (_, at) => ' ' + (parseInt(at, 36) - Number(by)).toString(36));
	db.run('UPDATE workflow_entity SET staticData = ? WHERE id = ?', [JSON.stringify(data), id], (failure) => {
		if (failure) throw failure;
		db.close();
	});
});`;
	execFileSync(instance.n8n.node, ['-e', script, instance.n8n.bin, database, workflowId, nodeName, String(byMs)], {
		stdio: 'inherit',
	});
}
