/** Workflow and credential JSON for n8n's import commands, shared with the demo. */
export * from '../../../tools/n8n/workflows';
