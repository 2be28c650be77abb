#!/usr/bin/env python3
"""Drives the pages of `contacts-ledger serve` in headless Chromium, step by step, as a person
would: search, open a contact, edit it, meet a stale edit, see the edit in the audit timeline,
travel to before it, undelete a contact, pick contacts for an app, verify, and read the list at
320 px. Saves a PNG of each page in OUTDIR and exits 1 with the failed step named.

Usage: drive_pages.py URL OUTDIR   (URL as the server printed it, token included)
The ledger must be the one `contacts-ledger demo` writes (Grace Hopper, the deleted Charles Babbage).
"""
import json
import os
import sys
import urllib.request

from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import WebDriverWait

URL, OUT = sys.argv[1], sys.argv[2]
BASE, TOKEN = URL.split("/?token=")
CURRENT = "start"


def api(method, path, body=None):
    """Calls the JSON API as another client would, with the token as a bearer."""
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(BASE + "/api/v1" + path, data=data, method=method)
    request.add_header("Authorization", "Bearer " + TOKEN)
    if data is not None:
        request.add_header("Content-Type", "application/json")
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.loads(response.read())


def step(name):
    global CURRENT
    CURRENT = name
    print("step:", name, flush=True)


def shot(driver, name):
    path = os.path.join(OUT, name + ".png")
    driver.save_screenshot(path)
    print("screenshot:", path, flush=True)


def texts(driver, selector):
    return [element.text for element in driver.find_elements(By.CSS_SELECTOR, selector)]


def start():
    options = Options()
    options.binary_location = os.environ.get("CHROMIUM", "/usr/bin/chromium")
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--window-size=1200,900", "--lang=en-GB"):
        options.add_argument(argument)
    service = Service(os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver"))
    return webdriver.Chrome(service=service, options=options)


def search_and_open(driver, wait):
    step("the list, in the store's order")
    driver.get(URL)
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#contact-list .name"))
    names = texts(driver, "#contact-list .name")
    assert names == ["Margaret Hamilton", "Grace Hopper", "Ada Lovelace", "Alan Turing"], names
    assert "?token=" not in driver.current_url, "the token stayed in the address bar"
    shot(driver, "01-contacts")
    step("search as you type, from the keyboard")
    driver.find_element(By.TAG_NAME, "body").send_keys("/")
    driver.switch_to.active_element.send_keys("hop")
    wait.until(lambda d: texts(d, "#contact-list .name") == ["Grace Hopper"])
    shot(driver, "02-search")
    step("open the contact with the keyboard")
    driver.switch_to.active_element.send_keys(Keys.ARROW_DOWN, Keys.ENTER)
    wait.until(EC.text_to_be_present_in_element((By.ID, "contact-name"), "Grace Hopper"))
    assert "Rear Admiral" in driver.find_element(By.ID, "contact").text
    shot(driver, "03-contact")
    return driver.current_url


def edit(driver, wait, contact_url):
    step("edit in place")
    driver.find_element(By.ID, "edit").click()
    field = wait.until(EC.presence_of_element_located((By.NAME, "jobTitle")))
    field.clear()
    field.send_keys("Commodore")
    shot(driver, "04-edit")
    driver.find_element(By.ID, "save").click()
    wait.until(EC.text_to_be_present_in_element((By.ID, "contact"), "Commodore"))
    step("a stale edit shows what changed meanwhile")
    driver.find_element(By.ID, "edit").click()
    field = wait.until(EC.presence_of_element_located((By.NAME, "jobTitle")))
    identifier = contact_url.rsplit("/", 1)[1]
    shown = api("GET", "/contacts/" + identifier)
    api("PATCH", "/contacts/" + identifier, {"revision": shown["revision"], "before": {"jobTitle": "Commodore"},
                                             "after": {"jobTitle": "Admiral"}, "author": "another-tab"})
    field.clear()
    field.send_keys("Fleet Admiral")
    driver.find_element(By.ID, "save").click()
    conflict = wait.until(EC.presence_of_element_located((By.ID, "conflict")))
    assert "jobTitle" in conflict.text and "Admiral" in conflict.text, conflict.text
    shot(driver, "05-stale-edit")
    card = driver.find_element(By.ID, "contact")
    driver.find_element(By.XPATH, "//button[text()='Discard mine']").click()
    wait.until(EC.staleness_of(card))
    wait.until(EC.text_to_be_present_in_element((By.ID, "contact-name"), "Grace Hopper"))
    assert "Admiral" in driver.find_element(By.ID, "contact").text


def audit(driver, wait):
    step("the edit in the audit timeline, with its diff")
    driver.get(BASE + "/#/audit")
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#timeline .entry"))
    entries = driver.find_elements(By.CSS_SELECTOR, "#timeline .entry")
    edit_entry = next(e for e in entries if "web" in e.find_element(By.CSS_SELECTOR, ".author").text)
    edit_entry.find_element(By.CSS_SELECTOR, ".show-diff").click()
    diff = edit_entry.find_element(By.CSS_SELECTOR, ".diff")
    assert "Commodore" in diff.text and "Rear Admiral" in diff.text, diff.text
    assert driver.find_elements(By.CSS_SELECTOR, "#activity svg rect.delete-bar"), "the deletes are not marked"
    driver.execute_script("arguments[0].scrollIntoView()", edit_entry)
    shot(driver, "06-audit")
    driver.execute_script("window.scrollTo(0, 0)")
    shot(driver, "07-audit-chart")
    return int(edit_entry.get_attribute("data-sequence"))


def time_travel(driver, wait, sequence):
    step("time travel to before the edit")
    driver.get(BASE + "/#/time")
    box = wait.until(EC.presence_of_element_located((By.ID, "asof-input")))
    box.send_keys(str(sequence - 1))
    driver.find_element(By.ID, "browse").click()
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#contact-list .name"))
    banner = driver.find_element(By.ID, "banner")
    assert banner.is_displayed() and "read-only" in banner.text, banner.text
    assert not driver.find_elements(By.ID, "add"), "a past state offers to add"
    shot(driver, "08-time-travel-list")
    driver.find_element(By.XPATH, "//span[@class='name'][text()='Grace Hopper']").click()
    wait.until(EC.text_to_be_present_in_element((By.ID, "contact"), "Rear Admiral"))
    assert not driver.find_elements(By.ID, "edit"), "a past state offers to edit"
    shot(driver, "09-time-travel-contact")


def undelete(driver, wait):
    step("undelete a contact from its history")
    driver.get(BASE + "/#/audit")
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#timeline .entry.deletes"))
    deleted = driver.find_element(By.CSS_SELECTOR, "#timeline .entry.deletes")
    deleted.find_element(By.CSS_SELECTOR, ".row a").click()
    button = wait.until(EC.element_to_be_clickable((By.ID, "undelete")))
    assert "deleted" in driver.find_element(By.ID, "revisions").text
    shot(driver, "10-history")
    button.click()
    wait.until(EC.text_to_be_present_in_element((By.ID, "contact-name"), "Charles Babbage"))
    shot(driver, "11-undeleted")


def picker(driver, wait):
    step("pick contacts for an app")
    driver.get(BASE + "/#/picker/com.example.notes")
    search = wait.until(EC.presence_of_element_located((By.ID, "picker-search")))
    search.send_keys("a")
    wait.until(lambda d: sorted(texts(d, "#picker-list .name")) == ["Ada Lovelace", "Alan Turing"])
    boxes = driver.find_elements(By.CSS_SELECTOR, "#picker-list input[type=checkbox]")
    picked = [boxes[0].get_attribute("value"), boxes[1].get_attribute("value")]
    boxes[0].send_keys(Keys.SPACE)
    boxes[1].click()
    shot(driver, "12-picker")
    share(driver, wait)
    wait.until(lambda d: any(c["client"] == "com.example.notes" and sorted(c["granted"]) == sorted(picked)
                             for c in api("GET", "/clients")))
    wait.until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#picker-list input:checked")) == 2)
    step("revoke one the same way")
    driver.find_element(By.CSS_SELECTOR, "#picker-list input:checked").click()
    share(driver, wait)
    wait.until(lambda d: any(c["client"] == "com.example.notes" and len(c["granted"]) == 1
                             for c in api("GET", "/clients")))
    shot(driver, "13-picker-after")


def share(driver, wait):
    """Presses "Share selected" and waits for the page drawn again after it, not the one before."""
    before = driver.find_element(By.ID, "picker-list")
    driver.find_element(By.ID, "grant").click()
    wait.until(EC.staleness_of(before))
    wait.until(EC.presence_of_element_located((By.ID, "picker-list")))


def verify(driver, wait):
    step("verify with progress, and the digest")
    driver.get(BASE + "/#/verify")
    digest = wait.until(EC.presence_of_element_located((By.ID, "digest"))).text
    head = api("GET", "/digest")
    assert digest == "%d:%s" % (head["sequence"], head["hash"]), digest
    driver.find_element(By.ID, "verify").click()
    wait.until(EC.text_to_be_present_in_element((By.ID, "verify-result"), "OK:"))
    shot(driver, "14-verify")


def narrow(driver, wait):
    step("readable at 320 px")
    driver.set_window_size(320, 740)
    driver.get(BASE + "/#/contacts")
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#contact-list .name"))
    width = driver.execute_script("return document.documentElement.scrollWidth")
    assert width <= 320, "the page is %d px wide at 320 px" % width
    shot(driver, "15-narrow-contacts")
    driver.get(BASE + "/#/audit")
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#timeline .entry"))
    width = driver.execute_script("return document.documentElement.scrollWidth")
    assert width <= 320, "the audit is %d px wide at 320 px" % width
    shot(driver, "16-narrow-audit")


def stays_local(driver):
    step("no request leaves the machine")
    urls = driver.execute_script("return performance.getEntriesByType('resource').map(e => e.name)")
    outside = [u for u in urls if not u.startswith(BASE)]
    assert not outside, outside
    errors = [entry for entry in driver.get_log("browser") if entry["level"] == "SEVERE"
              and "Content Security Policy" in entry["message"]]
    assert not errors, errors


def main():
    driver = start()
    wait = WebDriverWait(driver, 20)
    try:
        contact_url = search_and_open(driver, wait)
        edit(driver, wait, contact_url)
        sequence = audit(driver, wait)
        time_travel(driver, wait, sequence)
        undelete(driver, wait)
        picker(driver, wait)
        verify(driver, wait)
        narrow(driver, wait)
        stays_local(driver)
    except Exception as error:
        shot(driver, "failed-" + CURRENT.replace(" ", "-").replace(",", ""))
        print("failed at step %r: %s: %s" % (CURRENT, type(error).__name__, error), file=sys.stderr)
        return 1
    finally:
        driver.quit()
    print("ok", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
