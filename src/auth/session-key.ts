// Where the signed-in user's entry is kept in localStorage; public/start-app.js reads it too (vite.config.ts hands it over).
export const SESSION_KEY = 'currentUser';
