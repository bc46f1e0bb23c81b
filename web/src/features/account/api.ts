/** The account page's calls (docs/API.md#session). */
import { api } from '../../api/client.js';

/** PUT /api/auth/me/password: every token of the caller stops working; the answer carries this device's new one. */
export const changeOwnPassword = (current: string, password: string) => api<{ message: string; token: string }>('PUT', '/api/auth/me/password', { body: { current, password } });

/** POST /api/auth/me/logout-all: every token of the caller stops working, this one included. */
export const logoutEverywhere = () => api<{ message: string }>('POST', '/api/auth/me/logout-all');
