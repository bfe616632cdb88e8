/** The real-n8n tests drive n8n through the launcher the demo also uses. */
export * from '../../../tools/n8n/launcher';
