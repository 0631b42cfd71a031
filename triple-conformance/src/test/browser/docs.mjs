// Runs one call through a server's docs page (Swagger UI) in headless Chromium: opens the page (argv[2]),
// expands the operation of HTTP method argv[4] on path argv[5], presses "Try it out", fills parameter
// argv[6] with argv[7], presses "Execute", and prints as JSON the status, body and request URL that
// Swagger UI shows. On failure it prints the operations the page lists.
import { chromium } from "playwright-core";

const [page, browserPath, method, path, parameter, value] = process.argv.slice(2);
const browser = await chromium.launch({ executablePath: browserPath, args: ["--no-sandbox"] });
try {
  const tab = await browser.newPage();
  tab.on("console", (message) => console.error("console: " + message.text()));
  tab.setDefaultTimeout(60000);
  await tab.goto(page);
  const operation = tab.locator(`.opblock.opblock-${method.toLowerCase()}`,
    { has: tab.locator(`.opblock-summary-path[data-path="${path}"]`) });
  try {
    await operation.locator(".opblock-summary-control").click();
  } catch (e) {
    const listed = await tab.locator(".opblock-summary-path").evaluateAll((paths) => paths.map((p) => p.dataset.path));
    console.error("the page lists: " + JSON.stringify(listed));
    throw e;
  }
  await operation.getByRole("button", { name: "Try it out" }).click();
  await operation.locator(`tr[data-param-name="${parameter}"] input`).fill(value);
  await operation.getByRole("button", { name: "Execute" }).click();
  const response = operation.locator(".live-responses-table .response");
  await response.waitFor();
  console.log(JSON.stringify({
    status: (await response.locator(".response-col_status").textContent()).trim(),
    body: await response.locator(".response-col_description pre").first().textContent(),
    url: (await operation.locator(".request-url pre").textContent()).trim(),
  }));
} finally {
  await browser.close();
}
