// Opens the page (argv[2]) in headless Chromium (argv[3]) and prints the JSON the page wrote.
import { chromium } from "playwright-core";

const [page, browserPath] = process.argv.slice(2);
const browser = await chromium.launch({ executablePath: browserPath, args: ["--no-sandbox"] });
try {
  const tab = await browser.newPage();
  tab.on("console", (message) => console.error("console: " + message.text()));
  await tab.goto(page);
  await tab.waitForSelector("#done", { state: "visible", timeout: 60000 });
  console.log(await tab.textContent("#results"));
} finally {
  await browser.close();
}
