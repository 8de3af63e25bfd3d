import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app';
import { keepFocus } from './lib/focus-keeper';
import './index.css';

const root = document.getElementById('root');
if (!root) throw new Error('Missing #root element');

keepFocus();

createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
