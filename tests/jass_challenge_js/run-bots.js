require('babel-register');
require('babel-polyfill');
const JassBot = require('./bot/JassBot');
const url = process.argv[2];
const n = parseInt(process.argv[3] || '4');
for (let i = 0; i < n; i++) JassBot.create('jsbot' + i, url);
