// The teacher's page of rummykit's table server: the teacher code, new tables, every table live.
// Every sentence comes from the page's JSON (#rk-text), said by the server in the page's language;
// everything shown is built as DOM nodes (textContent), never as HTML from data.
'use strict';
(function () {
  const T = JSON.parse(document.getElementById('rk-text').textContent);
  const $ = (id) => document.getElementById(id);
  const KEY = 'rummykit-teacher-code';
  let code = sessionStorage.getItem(KEY) || '';
  let timer = null;
  const shown = new Map(); // table code -> {article, body, last}

  function say(key, params) {
    let text = T[key] || key;
    for (const [name, value] of Object.entries(params || {})) {
      text = text.split('{' + name + '}').join(String(value));
    }
    return text;
  }

  function el(tag, text, attrs) {
    const node = document.createElement(tag);
    if (text !== undefined && text !== null) node.textContent = text;
    for (const [name, value] of Object.entries(attrs || {})) node.setAttribute(name, value);
    return node;
  }

  async function api(path, body) {
    const headers = { Authorization: 'Bearer ' + code };
    const init = { method: body === undefined ? 'GET' : 'POST', headers, cache: 'no-store' };
    if (body !== undefined) {
      headers['Content-Type'] = 'application/json';
      init.body = JSON.stringify(body);
    }
    const answer = await fetch(path, init);
    const text = await answer.text();
    let data = null;
    try { data = JSON.parse(text); } catch (e) { data = null; }
    return { status: answer.status, data, text };
  }

  function alertText(text) { $('rk-alert').textContent = text || ''; }
  function statusText(text) { $('rk-status').textContent = text || ''; }

  // --- the code --------------------------------------------------------------------------
  async function useCode(given) {
    code = given;
    const answer = await api('/api/tables');
    if (answer.status !== 200) {
      code = '';
      sessionStorage.removeItem(KEY);
      alertText((answer.data && answer.data.message) || say('tables_bad_teacher_code'));
      $('rk-new-section').hidden = true;
      $('rk-tables-section').hidden = true;
      return;
    }
    sessionStorage.setItem(KEY, code);
    alertText('');
    statusText(say('tables_page_code_ok'));
    $('rk-new-section').hidden = false;
    $('rk-tables-section').hidden = false;
    draw(answer.data.tables);
    if (timer === null) timer = setInterval(refresh, 2000);
  }

  $('rk-code-form').addEventListener('submit', (event) => {
    event.preventDefault();
    useCode($('rk-code').value.trim());
  });

  // --- new tables --------------------------------------------------------------------------
  function readOptions(text) {
    const options = {};
    for (const part of text.split(/\s+/).filter(Boolean)) {
      const at = part.indexOf('=');
      if (at <= 0) throw new Error(say('tables_page_options_bad', { text: part }));
      const name = part.slice(0, at);
      const value = part.slice(at + 1);
      let read = value;
      if (/^-?\d+$/.test(value)) read = Number(value);
      else if (/^(true|yes|on)$/i.test(value)) read = true;
      else if (/^(false|no|off)$/i.test(value)) read = false;
      else if (/^\d+:\d+(,\d+:\d+)*$/.test(value)) {
        read = Object.fromEntries(value.split(',').map((pair) => pair.split(':').map(Number)));
      }
      options[name] = read;
    }
    return options;
  }

  $('rk-new').addEventListener('submit', async (event) => {
    event.preventDefault();
    let options;
    try {
      options = readOptions($('rk-options').value);
    } catch (error) {
      alertText(error.message);
      return;
    }
    const seats = [0, 1, 2, 3].map((n) => $('rk-seat-' + n).value).filter(Boolean);
    const settings = { variant: $('rk-variant').value, options, seats };
    const clock = $('rk-clock').value.trim();
    if (clock) settings.clock = Number(clock);
    settings.count = Number($('rk-count').value || 1);
    const answer = await api('/api/tables', settings);
    if (answer.status === 201) {
      alertText('');
      statusText(say('tables_page_created', { codes: answer.data.tables.map((t) => t.code).join(', ') }));
      refresh();
    } else {
      alertText((answer.data && answer.data.message) || answer.text);
    }
  });

  // --- every table, live -------------------------------------------------------------------
  $('rk-open').addEventListener('change', () => refresh());

  async function refresh() {
    if (!code) return;
    let answer;
    try {
      answer = await api('/api/tables' + ($('rk-open').checked ? '?open=1' : ''));
    } catch (error) {
      statusText(say('tables_page_lost'));
      return;
    }
    if (answer.status === 200) draw(answer.data.tables);
    else if (answer.status === 403) useCode('');
    else statusText(say('tables_page_lost'));
  }

  function draw(tables) {
    $('rk-none').hidden = tables.length > 0;
    const seen = new Set();
    for (const view of tables) {
      seen.add(view.code);
      let entry = shown.get(view.code);
      if (!entry) {
        entry = makeArticle(view.code);
        shown.set(view.code, entry);
        $('rk-tables').appendChild(entry.article);
      }
      const text = JSON.stringify(view);
      if (entry.last !== text) {
        entry.last = text;
        entry.close.hidden = view.here === false; // closed by the server that plays it
        entry.body.replaceChildren(...tableBody(view));
      }
    }
    for (const [name, entry] of shown) {
      if (!seen.has(name)) {
        entry.article.remove();
        shown.delete(name);
      }
    }
  }

  function makeArticle(name) {
    const article = el('article', null, { class: 'rk-table', 'data-table': name, 'aria-labelledby': 'rk-t-' + name });
    article.appendChild(el('h3', say('tables_page_table', { table: name }), { id: 'rk-t-' + name }));
    const body = el('div');
    article.appendChild(body);
    const buttons = el('p', null, { class: 'rk-buttons' });
    const record = el('button', say('tables_page_record'), { type: 'button' });
    record.addEventListener('click', () => saveRecord(name));
    const close = el('button', say('tables_page_close'), { type: 'button' });
    close.addEventListener('click', () => closeTable(name));
    buttons.append(record, ' ', close);
    article.appendChild(buttons);
    return { article, body, close, last: '' };
  }

  // a choice's words as the page's own menus say them (the server said them in the page's language)
  function optionText(menu, value) {
    for (const option of $(menu).options) if (option.value === value) return option.textContent;
    return value;
  }

  function cards(list) { return list.length ? list.join(' ') : '—'; }

  function tableBody(view) {
    const game = view.game;
    const parts = [];
    const status = say('tables_page_status_' + view.status);
    const where = view.here === false ? ' · ' + say('tables_page_elsewhere') : '';
    const head = el('p', optionText('rk-variant', view.settings.variant) + ' · ' + status + where, { class: 'rk-summary' });
    parts.push(head);
    parts.push(el('p', say('tables_page_round', { round: view.round, position: view.position - 1, current: game.current })));
    if (view.totals.some((n) => n !== 0)) parts.push(el('p', say('tables_page_totals', { totals: view.totals.join(' · ') })));
    const grid = el('table');
    const columns = ['tables_page_seat', 'tables_page_who', 'tables_page_connection', 'tables_page_cards', 'tables_page_score', 'tables_page_hand'];
    const headRow = el('tr');
    for (const key of columns) headRow.appendChild(el('th', say(key), { scope: 'col' }));
    grid.appendChild(el('thead')).appendChild(headRow);
    const rows = el('tbody');
    view.seats.forEach((seat, n) => {
      const row = el('tr', null, game.current === n && view.status === 'open' ? { class: 'rk-current' } : {});
      row.appendChild(el('th', String(n), { scope: 'row' }));
      const who = seat.kind === 'human' ? (seat.name || say('tables_page_free')) : optionText('rk-seat-0', seat.kind);
      row.appendChild(el('td', who));
      let connection = '—';
      if (seat.kind === 'human' && seat.connected !== null) connection = say(seat.connected ? 'tables_page_connected' : 'tables_page_not_connected');
      if (seat.computer_playing) connection += ' · ' + say('tables_page_computer_playing');
      row.appendChild(el('td', connection));
      row.appendChild(el('td', String(game.hand_sizes[n])));
      row.appendChild(el('td', String(game.scores[n])));
      row.appendChild(el('td', view.hands ? cards(view.hands[n]) : say('tables_page_hidden'), { class: 'rk-cards' }));
      rows.appendChild(row);
    });
    grid.appendChild(rows);
    parts.push(grid);
    parts.push(el('h4', say('tables_page_melds')));
    if (game.table.length) {
      const melds = el('ul', null, { class: 'rk-cards' });
      for (const meld of game.table) melds.appendChild(el('li', cards(meld.cards) + ' (' + say('tables_seat_name', { seat: meld.owner }) + ')'));
      parts.push(melds);
    } else {
      parts.push(el('p', say('tables_page_no_melds')));
    }
    parts.push(el('p', say('tables_page_discard') + ': ' + cards(game.discard_pile), { class: 'rk-cards' }));
    parts.push(el('p', say('tables_page_stock', { count: game.stock_size })));
    if (view.log.length) {
      parts.push(el('h4', say('tables_page_log')));
      const log = el('ul');
      for (const line of view.log.slice(-5)) log.appendChild(el('li', line.message));
      parts.push(log);
    }
    return parts;
  }

  async function saveRecord(name) {
    const answer = await api('/api/tables/' + name + '/record');
    if (answer.status !== 200) {
      alertText((answer.data && answer.data.message) || answer.text);
      return;
    }
    const link = el('a', null, { href: URL.createObjectURL(new Blob([answer.text], { type: 'application/json' })), download: name + '.json' });
    document.body.appendChild(link);
    link.click();
    link.remove();
  }

  async function closeTable(name) {
    const answer = await api('/api/tables/' + name + '/close', {});
    if (answer.status === 200) statusText(say('tables_page_closed', { table: name }));
    else alertText((answer.data && answer.data.message) || answer.text);
    refresh();
  }

  if (code) useCode(code);
})();
