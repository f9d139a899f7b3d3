// How long an HTML report takes to open in headless Chromium, as the page's
// own Navigation Timing says: from the start of the navigation to the end of
// its load event, and its first contentful paint. Chromium is driven over
// the DevTools protocol (a WebSocket on localhost), with no package to
// install: Node 22, or Node 20 with --experimental-websocket.
//
// Usage: node --experimental-websocket benches/page_load.mjs PAGE.html [ROUNDS]
// (CHROMIUM=path overrides /usr/bin/chromium). Each round is a fresh
// navigation from about:blank; prints each round and the median.
// benches/class1000.sh runs it on the class page.
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

const [page, roundsArg] = process.argv.slice(2);
if (!page || !existsSync(page)) {
    console.error(`page_load.mjs: no page \`${page ?? ""}\` (usage: page_load.mjs PAGE.html [ROUNDS])`);
    process.exit(2);
}
const rounds = Number(roundsArg ?? 5);
const chromium = process.env.CHROMIUM ?? "/usr/bin/chromium";
const profile = mkdtempSync(join(tmpdir(), "page-load-"));
const browser = spawn(chromium, [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    `--user-data-dir=${profile}`, "--remote-debugging-port=0", "about:blank",
], { stdio: "ignore" });
const sleep = (ms) => new Promise((done) => setTimeout(done, ms));

let socket;
try {
    // Chromium writes the port it chose into the profile.
    const portFile = join(profile, "DevToolsActivePort");
    for (let waited = 0; !existsSync(portFile) || !readFileSync(portFile, "utf8").includes("\n"); waited += 50) {
        if (waited > 60_000) throw new Error("Chromium did not open its DevTools port in 60 s");
        await sleep(50);
    }
    const port = readFileSync(portFile, "utf8").split("\n")[0];
    const targets = await (await fetch(`http://127.0.0.1:${port}/json/list`)).json();
    const target = targets.find((t) => t.type === "page");
    if (!target) throw new Error("Chromium has no page to drive");
    socket = new WebSocket(target.webSocketDebuggerUrl);
    await new Promise((done, fail) => { socket.onopen = done; socket.onerror = fail; });
    let nextId = 0;
    const waiting = new Map();
    const events = [];
    socket.onmessage = ({ data }) => {
        const message = JSON.parse(data);
        if (message.id !== undefined && waiting.has(message.id)) {
            waiting.get(message.id)(message);
            waiting.delete(message.id);
        } else if (message.method) {
            events.push(message.method);
        }
    };
    const send = (method, params = {}) => new Promise((done) => {
        const id = ++nextId;
        waiting.set(id, done);
        socket.send(JSON.stringify({ id, method, params }));
    });
    const loaded = async () => {
        for (let waited = 0; !events.includes("Page.loadEventFired"); waited += 10) {
            if (waited > 120_000) throw new Error("the page did not load in 120 s");
            await sleep(10);
        }
    };
    await send("Page.enable");
    const url = pathToFileURL(resolve(page)).href;
    const loads = [];
    for (let round = 1; round <= rounds; round++) {
        await send("Page.navigate", { url: "about:blank" });
        await sleep(100);
        events.length = 0;
        await send("Page.navigate", { url });
        await loaded();
        // The load event's end is set once its handlers return.
        await sleep(50);
        const { result } = await send("Runtime.evaluate", {
            returnByValue: true,
            expression: `(() => {
                const nav = performance.getEntriesByType("navigation")[0];
                const paint = performance.getEntriesByName("first-contentful-paint")[0];
                return { load: nav.loadEventEnd, dom: nav.domContentLoadedEventEnd,
                         paint: paint ? paint.startTime : null, nodes: document.getElementsByTagName("*").length };
            })()`,
        });
        const timing = result.result.value;
        loads.push(timing.load);
        console.log(`round ${round}: load event end ${timing.load.toFixed(0)} ms, DOM content loaded ${timing.dom.toFixed(0)} ms, first contentful paint ${timing.paint === null ? "none" : timing.paint.toFixed(0) + " ms"}, ${timing.nodes} elements`);
    }
    loads.sort((a, b) => a - b);
    console.log(`median load: ${loads[Math.floor(loads.length / 2)].toFixed(0)} ms over ${rounds} rounds`);
} catch (error) {
    console.error(`page_load.mjs: ${error.message}`);
    process.exitCode = 1;
} finally {
    socket?.close();
    browser.kill();
    await new Promise((done) => (browser.exitCode !== null ? done() : browser.once("exit", done)));
    rmSync(profile, { recursive: true, force: true });
}
