extension PageScript {
    /// Time travel (choosing a point to browse the address book at), verify (the head digest,
    /// copyable, and a verify run with progress), and the picker (an app's grants).
    static let tools = #"""
        pages.time = async function (main) {
          const input = el("input", { id: "asof-input", name: "asOf", placeholder: "a sequence, 2026-12-05 or 2026-12-05T14:30",
            "aria-label": "Point in the ledger's history" });
          const form = el("form", { class: "row", id: "time-form" }, input,
            el("button", { class: "primary", type: "submit", id: "browse" }, "Browse the address book then"));
          form.addEventListener("submit", (event) => {
            event.preventDefault();
            if (input.value.trim()) location.hash = link("contacts", null, { asOf: input.value.trim() });
          });
          const recent = el("ul", { class: "timeline" });
          main.replaceChildren(el("h1", {}, "Time travel"),
            el("p", {}, "Choose a point — a record's sequence, a date or a time — and browse every contact as it was then, ",
              "read-only."), form, el("h2", {}, "Recent records"), recent);
          const log = await api("/log?limit=20");
          for (const entry of log.entries) {
            recent.append(el("li", { class: "entry" },
              el("div", { class: "meta" }, el("strong", {}, "#" + entry.sequence), el("span", {}, formatTime(entry.time)),
                el("span", {}, entry.author)),
              el("div", {}, entry.operations.slice(0, 3).map(describeOperation).join("; ")),
              el("div", { class: "row" },
                el("a", { href: link("contacts", null, { asOf: String(entry.sequence - 1) }) }, "Before it"),
                el("a", { href: link("contacts", null, { asOf: String(entry.sequence) }) }, "After it"))));
          }
          input.focus();
        };

        pages.verify = async function (main) {
          const digest = await api("/digest");
          const text = `${digest.sequence}:${digest.hash}`;
          const code = el("code", { class: "digest", id: "digest" }, text);
          const copy = el("button", { id: "copy", onclick: async () => {
            try { await navigator.clipboard.writeText(text); notify("Digest copied."); }
            catch (error) {
              const range = document.createRange();
              range.selectNodeContents(code);
              getSelection().removeAllRanges();
              getSelection().addRange(range);
              notify("Selected: copy it with the keyboard.");
            }
          } }, "Copy");
          const bar = el("progress", { id: "verify-progress", max: 1, value: 0, hidden: true });
          const result = el("div", { id: "verify-result", "aria-live": "polite" });
          const run = el("button", { class: "primary", id: "verify", onclick: () => {
            run.disabled = true;
            bar.hidden = false;
            result.textContent = "Verifying…";
            const source = new EventSource("/api/v1/verify/stream");
            source.addEventListener("progress", (event) => {
              const p = JSON.parse(event.data);
              bar.max = Math.max(1, p.total);
              bar.value = p.done;
              result.textContent = `Checked ${p.done} of ${p.total} records…`;
            });
            source.addEventListener("result", (event) => {
              const r = JSON.parse(event.data);
              source.close();
              bar.value = bar.max;
              run.disabled = false;
              result.replaceChildren(el("p", { class: "ok" }, `OK: ${r.records} records and ${r.contacts} contacts check out; `,
                `head ${r.head.sequence} ${r.head.hash}.`));
              if (r.tail !== "clean") result.append(el("p", {}, r.tail));
            });
            source.addEventListener("failed", (event) => {
              source.close();
              run.disabled = false;
              result.replaceChildren(el("p", { class: "error" }, "Verify failed: " + JSON.parse(event.data).message));
            });
          } }, "Verify the ledger");
          main.replaceChildren(el("h1", {}, "Verify"),
            el("p", {}, "The head digest names the last record and the hash that chains every record before it. Write it ",
              "down elsewhere: a later verify against it proves nothing up to it was altered, dropped or reordered."),
            code, el("div", { class: "row" }, copy, run), bar, result);
        };

        pages.picker = async function (main, route) {
          const app = route.arg;
          if (!app) return drawApps(main);
          const clients = await api("/clients");
          const record = clients.find((c) => c.client === app);
          const granted = new Set(record ? record.granted : []);
          const chosen = new Set(granted);
          const search = el("input", { type: "search", id: "picker-search", placeholder: "Search contacts to share",
            "aria-label": "Search contacts to share", autocomplete: "off" });
          const list = el("ul", { class: "list pick", id: "picker-list" });
          const status = el("p", { class: "muted", "aria-live": "polite" });
          const grant = el("button", { class: "primary", id: "grant", onclick: () => apply() }, "Share selected");
          main.replaceChildren(el("h1", {}, `“${app}” asks for access to some of your contacts`),
            el("p", {}, "Tick the contacts this app may see; untick to take them back. The choice is recorded in the ",
              "ledger with you as its author."),
            search, status, list, el("div", { class: "row" }, grant, el("a", { href: link("picker") }, "All apps")));
          async function load() {
            const query = new URLSearchParams({ limit: 50 });
            if (search.value.trim()) query.set("q", search.value.trim());
            const page = await api("/contacts?" + query);
            status.textContent = `${page.total} contacts; ${chosen.size} selected.`;
            list.replaceChildren(...page.contacts.map((contact) => {
              const box = el("input", { type: "checkbox", value: contact.identifier, checked: chosen.has(contact.identifier) });
              box.addEventListener("change", () => {
                if (box.checked) chosen.add(contact.identifier); else chosen.delete(contact.identifier);
                status.textContent = `${page.total} contacts; ${chosen.size} selected.`;
              });
              return el("li", {}, el("label", {}, box, avatar(contact), el("span", { class: "name" }, fullName(contact))));
            }));
          }
          async function apply() {
            const adding = [...chosen].filter((id) => !granted.has(id));
            const removing = [...granted].filter((id) => !chosen.has(id));
            try {
              if (adding.length) await api(`/clients/${encodeURIComponent(app)}/grants`, { method: "POST",
                body: { identifiers: adding } });
              if (removing.length) await api(`/clients/${encodeURIComponent(app)}/revocations`, { method: "POST",
                body: { identifiers: removing } });
              notify(`Shared ${adding.length}, took back ${removing.length}.`);
              render();
            } catch (error) { notify(error.message, true); }
          }
          let timer = null;
          search.addEventListener("input", () => { clearTimeout(timer); timer = setTimeout(load, 120); });
          await load();
          search.focus();
        };

        async function drawApps(main) {
          const clients = await api("/clients");
          const input = el("input", { id: "app-input", placeholder: "com.example.app", "aria-label": "App identifier" });
          const form = el("form", { class: "row" }, input, el("button", { class: "primary", type: "submit" }, "Open picker"));
          form.addEventListener("submit", (event) => {
            event.preventDefault();
            if (input.value.trim()) location.hash = link("picker", input.value.trim());
          });
          main.replaceChildren(el("h1", {}, "Picker"),
            el("p", {}, "An app that asks for limited access gets a picker: open it with the app's identifier."), form,
            el("h2", {}, "Apps the ledger knows"),
            clients.length ? el("ul", { class: "list" }, clients.map((c) => el("li", {},
              el("a", { href: link("picker", c.client) }, c.client), ` — ${c.status || "no decision"}, `,
              `${c.granted.length} granted`))) : el("p", { class: "muted" }, "None yet."));
        }

        """#
}
