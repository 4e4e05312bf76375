import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router/dom';
import { router } from './app/router';
import { AuthProvider } from './features/auth/auth-provider';
import { authStore } from './features/auth/auth-store';
import './styles.css';

const container = document.getElementById('root');
if (!container) throw new Error('The page has no #root element');

createRoot(container).render(
  <StrictMode>
    <AuthProvider store={authStore}>
      <RouterProvider router={router} />
    </AuthProvider>
  </StrictMode>,
);
