extension PageScript {
    /// The audit: the activity chart (requests per day stacked by author, deletes marked), the
    /// timeline with its filters and each entry's diff, and one contact's history with restore
    /// and undelete.
    static let audit = #"""
        function describeOperation(op) {
          const who = op.contact ? fullName(op.contact) : (op.identifier || "");
          switch (op.type) {
            case "addContact": return `added ${who}`;
            case "updateContact":
              return `updated ${op.identifier.slice(0, 8)}: ${(op.changes || []).map((c) => c.key).join(", ")}`;
            case "deleteContact": return `deleted ${who}`;
            case "grantAccess": return `granted ${op.client} ${(op.contacts || []).length} contact(s)`;
            case "revokeAccess": return `revoked ${(op.contacts || []).length} contact(s) from ${op.client}`;
            case "undo": return `undo: ${op.kind} of record ${op.sequence}`;
            default: return op.type + (op.name ? ` ${op.name}` : "");
          }
        }

        function diffLines(op) {
          const show = (v) => typeof v === "string" ? JSON.stringify(v) : JSON.stringify(v);
          if (op.type === "updateContact") {
            return (op.changes || []).map((c) => el("div", {}, c.key + ": ", el("span", { class: "old" }, show(c.old)),
              " → ", el("span", { class: "new" }, show(c.new))));
          }
          if (op.type === "addContact" || op.type === "deleteContact") {
            const sign = op.type === "addContact" ? "+ " : "- ";
            return Object.entries(op.contact || {}).filter(([k, v]) => k !== "identifier" && v && v !== ""
              && !(Array.isArray(v) && !v.length) && k !== "imageDataAvailable")
              .map(([k, v]) => el("div", { class: op.type === "addContact" ? "new" : "old" }, sign + k + ": " + show(v)));
          }
          return [el("div", {}, JSON.stringify(op))];
        }

        function entryView(entry) {
          const deletes = entry.operations.filter((op) => op.type === "deleteContact").length;
          const diff = el("div", { class: "diff", hidden: true }, entry.operations.flatMap(diffLines));
          const toggle = el("button", { class: "show-diff", "aria-expanded": "false", onclick: async () => {
            diff.hidden = !diff.hidden;
            toggle.setAttribute("aria-expanded", String(!diff.hidden));
            toggle.textContent = diff.hidden ? "Show diff" : "Hide diff";
          } }, "Show diff");
          const revert = el("button", { onclick: async () => {
            if (!confirm(`Revert record ${entry.sequence}?`)) return;
            try { await api(`/log/${entry.sequence}/revert`, { method: "POST", body: {} }); notify("Reverted."); render(); }
            catch (error) { notify(error.message, true); }
          } }, "Revert");
          return el("li", { class: "entry" + (deletes ? " deletes" : ""), "data-sequence": entry.sequence },
            el("div", { class: "meta" }, el("strong", {}, "#" + entry.sequence), el("span", {}, formatTime(entry.time)),
              el("span", { class: "author" }, entry.author || "(no author)"),
              deletes ? el("span", { class: "error" }, `${deletes} deleted`) : null),
            el("div", { class: "ops" }, entry.operations.map((op) => el("div", {}, describeOperation(op)))),
            el("div", { class: "row" }, entry.affectedIdentifiers.slice(0, 6).map((id) =>
              el("a", { href: link("history", id) }, id.slice(0, 8))), toggle, revert),
            diff);
        }

        pages.audit = async function (main, route) {
          const filters = el("form", { class: "filters", id: "filters" },
            ["author", "contact", "since", "until"].map((name) => el("label", {}, name[0].toUpperCase() + name.slice(1),
              el("input", { name, value: route.params.get(name) || "",
                placeholder: name === "since" || name === "until" ? "sequence, date or time" : "" }))),
            el("button", { class: "primary", type: "submit" }, "Filter"));
          filters.addEventListener("submit", (event) => {
            event.preventDefault();
            const data = Object.fromEntries([...new FormData(filters)].filter(([, v]) => v));
            location.hash = link("audit", null, data);
          });
          const query = {};
          for (const name of ["author", "contact", "since", "until"]) {
            if (route.params.get(name)) query[name] = route.params.get(name);
          }
          const chart = el("div", { id: "activity" });
          const timeline = el("ul", { class: "timeline", id: "timeline" });
          const more = el("div", { class: "pager" });
          main.replaceChildren(el("h1", {}, "Audit"), filters, el("h2", {}, "Requests per day"), chart,
            el("h2", {}, "Timeline"), timeline, more);
          drawActivity(chart, await api("/activity?" + new URLSearchParams({ days: 30, ...query })));
          async function page(before) {
            const params = new URLSearchParams({ limit: 50, ...query });
            if (before) params.set("before", before);
            const log = await api("/log?" + params);
            timeline.append(...log.entries.map(entryView));
            const last = log.entries[log.entries.length - 1];
            more.replaceChildren(log.entries.length === 50 && last
              ? el("button", { onclick: () => page(last.sequence) }, "Older") : el("span", { class: "muted" },
                log.entries.length || timeline.children.length ? "The start of the ledger." : "No records match."));
          }
          onCommit((entry) => { if (!Object.keys(query).length) timeline.prepend(entryView(entry)); });
          await page(null);
        };

        function drawActivity(box, activity) {
          const days = activity.days;
          const authors = [...new Set(days.flatMap((d) => d.authors.map((a) => a.author)))].sort();
          const totals = days.map((d) => d.authors.reduce((n, a) => n + a.requests, 0));
          const deletes = days.map((d) => d.authors.reduce((n, a) => n + a.deletedContacts, 0));
          const max = Math.max(1, ...totals);
          const maxDeletes = Math.max(1, ...deletes);
          const width = 720, height = 200, left = 34, bottom = 22, step = (width - left) / days.length;
          const chart = svg("svg", { class: "chart", viewBox: `0 0 ${width} ${height}`, role: "img",
            "aria-label": `Requests per day over ${days.length} days; ${deletes.reduce((a, b) => a + b, 0)} contacts deleted` });
          const plot = height - bottom - 6;
          chart.append(svg("text", { x: 0, y: 12, "font-size": 11, fill: "currentColor" }, document.createTextNode(max)));
          chart.append(svg("line", { x1: left, x2: width, y1: height - bottom, y2: height - bottom, stroke: "currentColor",
            "stroke-opacity": ".3" }));
          days.forEach((day, index) => {
            let y = height - bottom;
            const x = left + index * step;
            for (const author of day.authors) {
              const h = (author.requests / max) * plot;
              y -= h;
              const bar = svg("rect", { x: x + 1, y, width: Math.max(1, step * 0.62 - 1), height: h,
                fill: colorFor(author.author) });
              bar.append(svg("title", {}, document.createTextNode(`${day.date}: ${author.requests} by ${author.author}`)));
              chart.append(bar);
            }
            if (deletes[index]) {
              const h = Math.max(4, (deletes[index] / maxDeletes) * plot);
              const mark = svg("rect", { class: "delete-bar", x: x + step * 0.62, y: height - bottom - h,
                width: Math.max(2, step * 0.3), height: h, fill: "#d93025" });
              mark.append(svg("title", {}, document.createTextNode(`${day.date}: ${deletes[index]} contacts deleted`)));
              chart.append(mark);
            }
            if (index % 5 === 0 || index === days.length - 1) {
              chart.append(svg("text", { x, y: height - 6, "font-size": 10, fill: "currentColor" },
                document.createTextNode(day.date.slice(5))));
            }
          });
          const legend = el("div", { class: "legend" },
            authors.map((a) => { const swatch = el("i"); swatch.style.background = colorFor(a); return el("span", {}, swatch, a); }),
            (() => { const swatch = el("i"); swatch.style.background = "#d93025"; return el("span", {}, swatch,
              "contacts deleted (own scale)"); })());
          box.replaceChildren(chart, legend);
        }

        pages.history = async function (main, route) {
          const identifier = route.arg;
          const history = await api(`/contacts/${encodeURIComponent(identifier)}/history`);
          const revisions = history.revisions;
          const last = revisions[revisions.length - 1];
          let exists = last.kind !== "deleted";
          const list = el("ul", { class: "timeline", id: "revisions" });
          revisions.slice().reverse().forEach((revision) => {
            const restore = exists && revision !== last && revision.kind !== "deleted"
              ? el("button", { class: "restore", onclick: () => restoreTo(history.identifier, revision.sequence) },
                "Restore this revision") : null;
            list.append(el("li", { class: "entry" + (revision.kind === "deleted" ? " deletes" : "") },
              el("div", { class: "meta" }, el("strong", {}, "#" + revision.sequence), el("span", {}, revision.kind),
                el("span", {}, formatTime(revision.time)), el("span", {}, revision.author || "(no author)")),
              el("div", { class: "diff" }, (revision.changes || []).map((c) => el("div", {}, c.key + ": ",
                el("span", { class: "old" }, JSON.stringify(c.old)), " → ", el("span", { class: "new" }, JSON.stringify(c.new))))),
              el("div", { class: "row" }, el("a", { href: link("contact", history.identifier, { asOf: String(revision.sequence) }) },
                "See it then"), restore)));
          });
          const undelete = exists ? null : el("button", { id: "undelete", class: "primary", onclick: async () => {
            try {
              await api(`/contacts/${encodeURIComponent(history.identifier)}/undelete`, { method: "POST", body: {} });
              notify("Contact restored.");
              location.hash = link("contact", history.identifier);
            } catch (error) { notify(error.message, true); }
          } }, "Undelete");
          main.replaceChildren(el("h1", {}, "History of " + history.identifier.slice(0, 8)),
            el("div", { class: "row" }, el("a", { href: link("contact", history.identifier) }, "The contact now"), undelete),
            list);
        };

        async function restoreTo(identifier, sequence) {
          try {
            await api(`/contacts/${encodeURIComponent(identifier)}/restore`, { method: "POST", body: { to: String(sequence) } });
            notify(`Restored to record ${sequence}.`);
            render();
          } catch (error) { notify(error.message, true); }
        }

        """#
}
