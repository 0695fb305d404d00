import { render } from 'preact';
import { App } from './app.js';
import './styles.css';
import { startTheme } from './theme.js';

startTheme();
render(<App />, document.getElementById('app')!);
