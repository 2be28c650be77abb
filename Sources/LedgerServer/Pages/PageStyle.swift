/// The pages' style sheet: readable from 320 px wide to a large screen, with visible focus for
/// keyboard use, and light or dark as the system prefers.
enum PageStyle {
    static let css = #"""
        :root { --fg: #1d2330; --bg: #fbfbfd; --muted: #5b6474; --line: #d9dde5; --accent: #2f5d8a;
          --accent-fg: #fff; --warn: #b3261e; --ok: #1e7b34; --panel: #fff; --banner: #fff4ce; }
        @media (prefers-color-scheme: dark) {
          :root { --fg: #e6e9ef; --bg: #15181e; --muted: #a3abb9; --line: #343a46; --accent: #7fb0e0;
            --accent-fg: #10161e; --warn: #ff8a80; --ok: #7bd88f; --panel: #1d2129; --banner: #4a3f12; }
        }
        * { box-sizing: border-box; }
        body { margin: 0; font: 16px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--fg);
          background: var(--bg); }
        a { color: var(--accent); }
        :focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
        .skip { position: absolute; left: -999px; }
        .skip:focus { left: 8px; top: 8px; background: var(--panel); padding: 4px 8px; z-index: 10; }
        .top { display: flex; flex-wrap: wrap; align-items: center; gap: 8px 16px; padding: 10px 16px;
          border-bottom: 1px solid var(--line); background: var(--panel); }
        .brand { font-weight: 700; text-decoration: none; color: var(--fg); }
        nav { display: flex; flex-wrap: wrap; gap: 4px 12px; }
        nav a { text-decoration: none; padding: 2px 4px; border-radius: 4px; }
        nav a[aria-current="page"] { background: var(--accent); color: var(--accent-fg); }
        .head { margin-left: auto; color: var(--muted); font-size: 14px; }
        main { max-width: 1100px; margin: 0 auto; padding: 16px; }
        main:focus { outline: none; }
        h1 { font-size: 1.5rem; margin: 0 0 12px; }
        h2 { font-size: 1.15rem; margin: 20px 0 8px; }
        .banner { background: var(--banner); padding: 8px 16px; border-bottom: 1px solid var(--line); }
        .notice { position: fixed; bottom: 12px; right: 12px; max-width: min(420px, calc(100vw - 24px)); }
        .notice div { background: var(--panel); border: 1px solid var(--line); border-radius: 6px; padding: 8px 12px;
          margin-top: 6px; box-shadow: 0 2px 8px rgba(0,0,0,.15); }
        .error { color: var(--warn); }
        .ok { color: var(--ok); }
        .muted { color: var(--muted); }
        .row { display: flex; flex-wrap: wrap; gap: 8px; align-items: center; margin: 8px 0; }
        input, select, textarea, button { font: inherit; }
        input[type=text], input[type=search], input:not([type]), textarea, select { padding: 6px 8px;
          border: 1px solid var(--line); border-radius: 6px; background: var(--panel); color: var(--fg);
          min-width: 0; max-width: 100%; }
        input[type=search] { width: 100%; font-size: 1.05rem; }
        .row input[type=search] { flex: 1 1 220px; width: auto; }
        button { padding: 6px 12px; border-radius: 6px; border: 1px solid var(--accent); background: var(--panel);
          color: var(--accent); cursor: pointer; }
        button.primary { background: var(--accent); color: var(--accent-fg); }
        button.danger { border-color: var(--warn); color: var(--warn); }
        button:disabled { opacity: .5; cursor: default; }
        ul.list { list-style: none; margin: 0; padding: 0; border-top: 1px solid var(--line); }
        ul.list li { border-bottom: 1px solid var(--line); }
        .contact-row a { display: flex; gap: 12px; align-items: center; padding: 8px 4px; text-decoration: none;
          color: var(--fg); }
        .contact-row .who { display: flex; flex-direction: column; min-width: 0; }
        .contact-row .who span { overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
        .avatar { flex: none; width: 40px; height: 40px; border-radius: 50%; display: inline-flex;
          align-items: center; justify-content: center; color: #fff; font-weight: 600; overflow: hidden; }
        .avatar img { width: 100%; height: 100%; object-fit: cover; }
        .avatar.large { width: 96px; height: 96px; font-size: 2rem; }
        .card { background: var(--panel); border: 1px solid var(--line); border-radius: 8px; padding: 16px; }
        .contact-head { display: flex; flex-wrap: wrap; gap: 16px; align-items: center; margin-bottom: 12px; }
        dl.props { display: grid; grid-template-columns: minmax(90px, 180px) 1fr; gap: 6px 12px; margin: 0; }
        dl.props dt { color: var(--muted); }
        dl.props dd { margin: 0; overflow-wrap: anywhere; }
        @media (max-width: 480px) { dl.props { grid-template-columns: 1fr; } dl.props dd { margin-bottom: 6px; } }
        .pager { display: flex; flex-wrap: wrap; gap: 8px; align-items: center; margin: 12px 0; }
        .timeline { list-style: none; padding: 0; margin: 0; }
        .entry { border: 1px solid var(--line); border-radius: 8px; padding: 10px 12px; margin: 8px 0;
          background: var(--panel); }
        .entry .meta { display: flex; flex-wrap: wrap; gap: 4px 12px; color: var(--muted); font-size: 14px; }
        .entry .ops { margin: 6px 0; }
        .entry.deletes { border-left: 4px solid var(--warn); }
        .diff { font-family: ui-monospace, monospace; font-size: 14px; overflow-wrap: anywhere; }
        .diff .old { color: var(--warn); }
        .diff .new { color: var(--ok); }
        .chart { width: 100%; height: auto; display: block; }
        .legend { display: flex; flex-wrap: wrap; gap: 4px 12px; font-size: 14px; }
        .legend i { display: inline-block; width: 12px; height: 12px; border-radius: 2px; margin-right: 4px; }
        code.digest { display: block; padding: 8px; background: var(--panel); border: 1px solid var(--line);
          border-radius: 6px; overflow-wrap: anywhere; }
        progress { width: 100%; height: 18px; }
        .conflict { border: 2px solid var(--warn); border-radius: 8px; padding: 12px; margin: 12px 0; }
        .pick label { display: flex; gap: 10px; align-items: center; padding: 8px 4px; cursor: pointer; }
        .pick input[type=checkbox] { width: 20px; height: 20px; }
        form.filters { display: grid; grid-template-columns: repeat(auto-fit, minmax(150px, 1fr)); gap: 8px;
          align-items: end; }
        form.filters label, form.editor label { display: flex; flex-direction: column; gap: 2px; font-size: 14px;
          color: var(--muted); }
        form.editor { display: grid; grid-template-columns: repeat(auto-fit, minmax(200px, 1fr)); gap: 8px; }
        form.editor fieldset, form.editor .row { grid-column: 1 / -1; min-width: 0; }
        fieldset { border: 1px solid var(--line); border-radius: 6px; }
        .labeled { display: flex; flex-wrap: wrap; gap: 6px; margin: 4px 0; }
        .labeled input { flex: 1 1 140px; min-width: 0; }
        .labeled input[data-part=label] { flex: 0 1 120px; }
        """#
}
