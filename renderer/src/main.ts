import { createApp } from 'vue';
import { createPinia } from 'pinia';
import App from './App.vue';
import './lib/theme.js';
import './styles/base.css';
import './styles/pdf-text-layer.css';

createApp(App).use(createPinia()).mount('#app');
