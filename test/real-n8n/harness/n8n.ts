/** The real-n8n tests drive n8n through the launcher the demo also uses. */
export * from '../../../tools/n8n/launcher';
/** The example workflows and the stand-in for the services they call, shared with the demo. */
export * from '../../../tools/n8n/examples';
