// VitePress's default theme with the colours WCAG 2.1 AA asks of text (custom.css).
import DefaultTheme from 'vitepress/theme';
import './custom.css';

export default DefaultTheme;
