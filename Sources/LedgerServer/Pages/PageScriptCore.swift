extension PageScript {
    /// What every page shares: the API, elements, avatars, labels, the router, live events.
    static let core = #"""
        "use strict";
        const state = { head: 0, route: null, live: null };

        function el(tag, attrs, ...children) {
          const node = document.createElement(tag);
          for (const [key, value] of Object.entries(attrs || {})) {
            if (value === null || value === undefined || value === false) continue;
            if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
            else if (key === "text") node.textContent = value;
            else node.setAttribute(key, value === true ? "" : value);
          }
          for (const child of children.flat()) {
            if (child === null || child === undefined || child === false) continue;
            node.append(child instanceof Node ? child : document.createTextNode(String(child)));
          }
          return node;
        }

        const svgNS = "http://www.w3.org/2000/svg";
        function svg(tag, attrs, ...children) {
          const node = document.createElementNS(svgNS, tag);
          for (const [key, value] of Object.entries(attrs || {})) node.setAttribute(key, value);
          for (const child of children) if (child) node.append(child);
          return node;
        }

        async function api(path, options) {
          const init = { method: "GET", headers: {}, credentials: "same-origin", ...(options || {}) };
          if (init.body !== undefined && typeof init.body !== "string") {
            init.body = JSON.stringify(init.body);
            init.headers["Content-Type"] = "application/json";
          }
          const response = await fetch("/api/v1" + path, init);
          const text = await response.text();
          let value = null;
          try { value = text ? JSON.parse(text) : null; } catch (e) { value = { message: text }; }
          if (!response.ok) {
            const error = new Error((value && value.message) || response.statusText);
            error.status = response.status;
            error.body = value;
            throw error;
          }
          return value;
        }

        function notify(message, isError) {
          const box = el("div", { class: isError ? "error" : "" }, message);
          document.getElementById("notice").append(box);
          setTimeout(() => box.remove(), isError ? 8000 : 4000);
        }

        function labelName(label) {
          if (!label) return "";
          const match = /^_\$!<(.*)>!\$_$/.exec(label);
          return match ? match[1] : label;
        }

        function fullName(contact) {
          const parts = [contact.givenName, contact.middleName, contact.familyName].filter(Boolean);
          if (parts.length) return parts.join(" ");
          return contact.organizationName || contact.emailAddresses?.[0]?.value || "(no name)";
        }

        function hue(identifier) {
          let hash = 0;
          for (const ch of identifier || "") hash = (hash * 31 + ch.charCodeAt(0)) >>> 0;
          return hash % 360;
        }

        function colorFor(text) { return `hsl(${hue(text)} 55% 42%)`; }

        function imageType(base64) {
          if (base64.startsWith("iVBOR")) return "image/png";
          if (base64.startsWith("R0lGOD")) return "image/gif";
          if (base64.startsWith("UklGR")) return "image/webp";
          return "image/jpeg";
        }

        function avatar(contact, large) {
          const box = el("span", { class: "avatar" + (large ? " large" : ""), "aria-hidden": "true" });
          const image = contact.imageData || contact.thumbnailImageData;
          if (image) {
            box.append(el("img", { src: `data:${imageType(image)};base64,${image}`, alt: "" }));
            return box;
          }
          const initials = [contact.givenName, contact.familyName].filter(Boolean).map((s) => s[0]).join("")
            || (contact.organizationName || "?")[0];
          box.textContent = initials.toUpperCase();
          box.style.background = colorFor(contact.identifier);
          return box;
        }

        function formatTime(text) {
          const date = new Date(text);
          return isNaN(date) ? text : date.toLocaleString();
        }

        function parseRoute() {
          const hash = location.hash.replace(/^#/, "") || "/contacts";
          const [path, query] = hash.split("?");
          const params = new URLSearchParams(query || "");
          const parts = path.split("/").filter(Boolean).map(decodeURIComponent);
          return { page: parts[0] || "contacts", arg: parts[1] || null, params };
        }

        function link(page, arg, params) {
          let hash = "#/" + page + (arg ? "/" + encodeURIComponent(arg) : "");
          const query = new URLSearchParams(params || {}).toString();
          return query ? hash + "?" + query : hash;
        }

        function asOfParams(route) {
          const asOf = route.params.get("asOf");
          return asOf ? { asOf } : {};
        }

        function showBanner(route) {
          const banner = document.getElementById("banner");
          const asOf = route.params.get("asOf");
          banner.replaceChildren();
          banner.hidden = !asOf;
          if (!asOf) return;
          banner.append(
            el("strong", {}, "Time travel: "),
            `the address book as it was at ${asOf}, read-only. `,
            el("a", { href: link(route.page === "contact" ? "contact" : "contacts", route.arg) }, "Back to now"));
        }

        const pages = {};

        async function render() {
          const route = parseRoute();
          state.route = route;
          for (const a of document.querySelectorAll("nav a")) {
            if (a.dataset.page === route.page) a.setAttribute("aria-current", "page");
            else a.removeAttribute("aria-current");
          }
          showBanner(route);
          const main = document.getElementById("main");
          const draw = pages[route.page] || pages.contacts;
          main.replaceChildren(el("p", { class: "muted" }, "Loading…"));
          try {
            await draw(main, route);
          } catch (error) {
            main.replaceChildren(el("h1", {}, "Something went wrong"), el("p", { class: "error" }, error.message));
          }
        }

        function setHead(sequence) {
          state.head = Math.max(state.head, sequence);
          document.getElementById("head").textContent = "head " + state.head;
        }

        function startLive() {
          if (state.live) return;
          const source = new EventSource("/api/v1/events");
          state.live = source;
          source.addEventListener("commit", (event) => {
            const entry = JSON.parse(event.data);
            setHead(entry.sequence);
            const listeners = state.onCommit || [];
            for (const listener of listeners) listener(entry);
          });
        }

        function onCommit(listener) { state.onCommit = [listener]; }

        window.addEventListener("hashchange", () => { state.onCommit = []; render(); });
        document.addEventListener("keydown", (event) => {
          const typing = /INPUT|TEXTAREA|SELECT/.test(document.activeElement?.tagName || "");
          if (event.key === "/" && !typing) {
            const search = document.querySelector("input[type=search]");
            if (search) { event.preventDefault(); search.focus(); }
          }
        });
        window.addEventListener("DOMContentLoaded", async () => {
          try { setHead((await api("/digest")).sequence); } catch (e) { notify(e.message, true); }
          startLive();
          render();
        });

        """#
}
