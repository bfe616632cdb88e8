import type { Endpoint } from '../../types';
import { agendaEndpoints } from './agendas';
import { eventEndpoints } from './events';

/** The Calendar resource: its events first (Create Event, the operation a new node shows), then the agenda around them. */
export const calendarEndpoints: Endpoint[] = [...eventEndpoints, ...agendaEndpoints];
