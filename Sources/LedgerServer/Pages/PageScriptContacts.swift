extension PageScript {
    /// The contacts: the list with search as you type and paging, a contact with its avatar and
    /// every property, editing in place with what changed meanwhile on a stale save, and adding.
    static let contacts = #"""
        const pageSize = 50;
        const textKeys = [
          ["namePrefix", "Prefix"], ["givenName", "Given name"], ["middleName", "Middle name"],
          ["familyName", "Family name"], ["nameSuffix", "Suffix"], ["nickname", "Nickname"],
          ["organizationName", "Organization"], ["departmentName", "Department"], ["jobTitle", "Job title"],
          ["note", "Note"],
        ];
        const listKeys = [["phoneNumbers", "Phone"], ["emailAddresses", "Email"], ["urlAddresses", "URL"]];

        pages.contacts = async function (main, route) {
          const params = asOfParams(route);
          const search = el("input", {
            type: "search", id: "search", placeholder: "Search by name, email or phone", "aria-label": "Search contacts",
            value: route.params.get("q") || "", autocomplete: "off",
          });
          const summary = el("p", { class: "muted", id: "summary", "aria-live": "polite" });
          const list = el("ul", { class: "list", id: "contact-list" });
          const pager = el("div", { class: "pager" });
          const add = params.asOf ? null : el("button", { id: "add", onclick: () => showAddForm(main) }, "Add contact");
          main.replaceChildren(el("h1", {}, "Contacts"), el("div", { class: "row" }, search, add), summary, list, pager);
          let offset = Number(route.params.get("offset") || 0);
          let controller = null;
          async function load() {
            controller?.abort();
            controller = new AbortController();
            const query = new URLSearchParams({ offset, limit: pageSize, ...params });
            if (search.value.trim()) query.set("q", search.value.trim());
            let page;
            try {
              page = await api("/contacts?" + query, { signal: controller.signal });
            } catch (error) {
              if (error.name !== "AbortError") summary.textContent = error.message;
              return;
            }
            drawRows(list, page.contacts, params);
            const end = Math.min(offset + page.contacts.length, page.total);
            summary.textContent = page.total ? `${offset + 1}–${end} of ${page.total}` : "No contacts match.";
            pager.replaceChildren(
              el("button", { disabled: offset === 0, onclick: () => { offset = Math.max(0, offset - pageSize); load(); } },
                "Previous"),
              el("button", { disabled: end >= page.total, onclick: () => { offset += pageSize; load(); } }, "Next"));
          }
          let timer = null;
          search.addEventListener("input", () => {
            clearTimeout(timer);
            timer = setTimeout(() => { offset = 0; load(); }, 120);
          });
          search.addEventListener("keydown", (event) => {
            if (event.key === "ArrowDown") { event.preventDefault(); list.querySelector("a")?.focus(); }
          });
          list.addEventListener("keydown", (event) => moveFocus(event, list, search));
          if (!params.asOf) onCommit(() => load());
          await load();
          search.focus();
        };

        function moveFocus(event, list, search) {
          if (event.key !== "ArrowDown" && event.key !== "ArrowUp") return;
          const links = [...list.querySelectorAll("a")];
          const index = links.indexOf(document.activeElement);
          if (index < 0) return;
          event.preventDefault();
          const next = index + (event.key === "ArrowDown" ? 1 : -1);
          if (next < 0) search.focus(); else links[Math.min(next, links.length - 1)].focus();
        }

        function drawRows(list, contacts, params) {
          list.replaceChildren(...contacts.map((contact) => {
            const detail = contact.emailAddresses?.[0]?.value || contact.phoneNumbers?.[0]?.value
              || contact.organizationName || "";
            return el("li", { class: "contact-row" },
              el("a", { href: link("contact", contact.identifier, params) },
                avatar(contact), el("span", { class: "who" }, el("span", { class: "name" }, fullName(contact)),
                  el("span", { class: "muted" }, detail))));
          }));
        }

        function showAddForm(main) {
          const fields = [["givenName", "Given name"], ["familyName", "Family name"], ["organizationName", "Organization"],
            ["email", "Email"], ["phone", "Phone"]];
          const form = el("form", { class: "editor card", id: "add-form" },
            fields.map(([name, label]) => el("label", {}, label, el("input", { name }))),
            el("div", { class: "row" }, el("button", { class: "primary", type: "submit" }, "Add"),
              el("button", { type: "button", onclick: () => form.remove() }, "Cancel")));
          form.addEventListener("submit", async (event) => {
            event.preventDefault();
            const data = Object.fromEntries(new FormData(form));
            const contact = { givenName: data.givenName, familyName: data.familyName,
              organizationName: data.organizationName };
            if (data.email) contact.emailAddresses = [{ label: "_$!<Home>!$_", value: data.email }];
            if (data.phone) contact.phoneNumbers = [{ label: "_$!<Mobile>!$_", value: data.phone }];
            try {
              const written = await api("/contacts", { method: "POST", body: { contact } });
              location.hash = link("contact", written.identifiers[0]);
            } catch (error) { notify(error.message, true); }
          });
          main.querySelector("h1").after(form);
          form.querySelector("input").focus();
        }

        pages.contact = async function (main, route) {
          const params = asOfParams(route);
          let shown;
          try {
            shown = await api(`/contacts/${encodeURIComponent(route.arg)}?` + new URLSearchParams(params));
          } catch (error) {
            if (error.status !== 404) throw error;
            return drawMissing(main, route, error.body || {});
          }
          drawContact(main, shown, params);
        };

        function drawMissing(main, route, body) {
          main.replaceChildren(el("h1", {}, "No such contact"), el("p", {}, body.message || ""));
          const deleted = body.deleted;
          if (!deleted) return;
          main.append(
            el("p", {}, `Deleted at record ${deleted.sequence} (${formatTime(deleted.time)}) by ${deleted.author || "?"}.`),
            el("div", { class: "row" },
              el("a", { href: link("contact", body.identifier, { asOf: String(deleted.sequence - 1) }) },
                "See it as it was"),
              el("a", { href: link("history", body.identifier) }, "History"),
              route.params.get("asOf") ? null : el("button", { id: "undelete", class: "primary", onclick: async () => {
                try {
                  await api(`/contacts/${encodeURIComponent(body.identifier)}/undelete`, { method: "POST", body: {} });
                  notify("Contact restored.");
                  render();
                } catch (error) { notify(error.message, true); }
              } }, "Undelete")));
        }

        function drawContact(main, shown, params) {
          const contact = shown.contact;
          const card = el("div", { class: "card", id: "contact" });
          const actions = el("div", { class: "row" },
            params.asOf ? null : el("button", { id: "edit", class: "primary", onclick: () => editContact(card, shown) },
              "Edit"),
            el("a", { href: link("history", contact.identifier) }, "History"),
            params.asOf ? null : el("button", { id: "delete", class: "danger", onclick: () => deleteContact(shown) },
              "Delete"));
          card.append(
            el("div", { class: "contact-head" }, avatar(contact, true),
              el("div", {}, el("h1", { id: "contact-name" }, fullName(contact)),
                el("div", { class: "muted" }, [contact.jobTitle, contact.organizationName].filter(Boolean).join(", ")))),
            propertyList(contact), actions);
          main.replaceChildren(el("p", {}, el("a", { href: link("contacts", null, params) }, "← Contacts")), card);
        }

        function propertyList(contact) {
          const list = el("dl", { class: "props" });
          for (const [key, label] of textKeys) {
            if (contact[key]) list.append(el("dt", {}, label), el("dd", { "data-key": key }, contact[key]));
          }
          for (const [key, label] of listKeys) {
            for (const item of contact[key] || []) {
              list.append(el("dt", {}, `${label} (${labelName(item.label) || "other"})`), el("dd", {}, item.value));
            }
          }
          for (const item of contact.postalAddresses || []) {
            const value = item.value;
            const lines = [value.street, [value.postalCode, value.city].filter(Boolean).join(" "), value.state,
              value.country].filter(Boolean).join(", ");
            list.append(el("dt", {}, `Address (${labelName(item.label) || "other"})`), el("dd", {}, lines));
          }
          if (contact.birthday) {
            const b = contact.birthday;
            list.append(el("dt", {}, "Birthday"), el("dd", {}, [b.year, b.month, b.day].filter(Boolean).join("-")));
          }
          for (const item of contact.dates || []) {
            const d = item.value;
            list.append(el("dt", {}, `Date (${labelName(item.label)})`),
              el("dd", {}, [d.year, d.month, d.day].filter(Boolean).join("-")));
          }
          for (const item of contact.contactRelations || []) {
            list.append(el("dt", {}, `Relation (${labelName(item.label)})`), el("dd", {}, item.value.name));
          }
          for (const item of contact.socialProfiles || []) {
            list.append(el("dt", {}, `Profile (${item.value.service})`), el("dd", {}, item.value.username));
          }
          list.append(el("dt", {}, "Identifier"), el("dd", { class: "muted" }, contact.identifier));
          return list;
        }

        function labeledEditor(key, label, items) {
          const box = el("fieldset", { "data-list": key }, el("legend", {}, label));
          const addRow = (item) => {
            const row = el("div", { class: "labeled" },
              el("input", { "aria-label": label + " label", value: labelName(item.label), "data-part": "label" }),
              el("input", { "aria-label": label, value: item.value, "data-part": "value" }),
              el("button", { type: "button", "aria-label": "Remove " + label, onclick: () => row.remove() }, "Remove"));
            row.dataset.identifier = item.identifier || "";
            row.dataset.rawLabel = item.label || "";
            box.insertBefore(row, box.lastChild);
          };
          box.append(el("button", { type: "button", onclick: () => addRow({ label: "", value: "" }) }, "Add " + label));
          for (const item of items || []) addRow(item);
          return box;
        }

        function readLabeled(box) {
          return [...box.querySelectorAll(".labeled")].map((row) => {
            const [labelInput, valueInput] = row.querySelectorAll("input");
            const typed = labelInput.value.trim();
            const label = typed === labelName(row.dataset.rawLabel) ? (row.dataset.rawLabel || null)
              : (typed ? (["Home", "Work", "Mobile", "Main", "Other", "iPhone"].includes(typed) ? `_$!<${typed}>!$_` : typed)
                : null);
            const item = { label, value: valueInput.value.trim() };
            if (row.dataset.identifier) item.identifier = row.dataset.identifier;
            return item;
          }).filter((item) => item.value);
        }

        function editContact(card, shown) {
          const contact = shown.contact;
          const form = el("form", { class: "editor", id: "editor" },
            textKeys.map(([key, label]) => el("label", {}, label,
              key === "note" ? el("textarea", { name: key, rows: 3 }, contact[key] || "")
                : el("input", { name: key, value: contact[key] || "" }))),
            labeledEditor("phoneNumbers", "Phone", contact.phoneNumbers),
            labeledEditor("emailAddresses", "Email", contact.emailAddresses),
            el("div", { class: "row" }, el("button", { class: "primary", type: "submit", id: "save" }, "Save"),
              el("button", { type: "button", onclick: () => render() }, "Cancel")));
          form.addEventListener("submit", (event) => { event.preventDefault(); saveContact(card, form, shown); });
          card.replaceChildren(el("h1", {}, "Edit " + fullName(contact)), form);
          form.querySelector("input").focus();
        }

        function changes(form, contact) {
          const before = {};
          const after = {};
          for (const [key] of textKeys) {
            const value = form.elements[key].value;
            if (value !== (contact[key] || "")) { before[key] = contact[key] || ""; after[key] = value; }
          }
          for (const key of ["phoneNumbers", "emailAddresses"]) {
            const value = readLabeled(form.querySelector(`[data-list=${key}]`));
            const old = contact[key] || [];
            if (JSON.stringify(value) !== JSON.stringify(old.map((i) => ({ label: i.label, value: i.value,
              identifier: i.identifier })))) { before[key] = old; after[key] = value; }
          }
          return { before, after };
        }

        async function saveContact(card, form, shown, force) {
          const { before, after } = changes(form, shown.contact);
          if (!Object.keys(after).length) { notify("Nothing changed."); return render(); }
          try {
            await api(`/contacts/${encodeURIComponent(shown.contact.identifier)}`,
              { method: "PATCH", body: { revision: shown.revision, before, after } });
            notify("Saved.");
            render();
          } catch (error) {
            if (error.status !== 409 || !error.body?.current) return notify(error.message, true);
            showConflict(card, form, shown, error.body);
          }
        }

        function showConflict(card, form, shown, body) {
          card.querySelector(".conflict")?.remove();
          const rows = (body.keyPaths || []).map((key) => {
            const mine = form.elements[key] ? form.elements[key].value : "(your list)";
            const theirs = body.current[key];
            const show = (v) => typeof v === "string" ? v || "(empty)" : JSON.stringify(v);
            return el("li", {}, el("strong", {}, key), ": now ", el("span", { class: "new" }, show(theirs)),
              ", was ", el("span", { class: "old" }, show(shown.contact[key])), ", yours ", el("span", {}, show(mine)));
          });
          const box = el("div", { class: "conflict", id: "conflict", role: "alert" },
            el("strong", {}, "This contact changed since you opened it."),
            el("ul", { class: "diff" }, rows),
            el("div", { class: "row" },
              el("button", { class: "primary", onclick: () => {
                saveContact(card, form, { contact: body.current, revision: body.revision });
              } }, "Save mine over theirs"),
              el("button", { onclick: () => render() }, "Discard mine")));
          card.prepend(box);
        }

        async function deleteContact(shown) {
          if (!confirm(`Delete ${fullName(shown.contact)}? The audit keeps it, and Undelete brings it back.`)) return;
          try {
            await api(`/contacts/${encodeURIComponent(shown.contact.identifier)}`,
              { method: "DELETE", body: { revision: shown.revision } });
            notify("Deleted.");
            render();
          } catch (error) { notify(error.message, true); }
        }

        """#
}
