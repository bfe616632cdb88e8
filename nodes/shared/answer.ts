/**
 * How Agency CRM gets the answer to a delivery: from the trigger at once, or from the workflow (an
 * Agency CRM Answer node). The trigger's Answer parameter holds it; the Answer node reads it on the
 * trigger before it answers.
 */
export const ANSWER = { immediately: 'immediately', fromWorkflow: 'workflow' } as const;
