#!/usr/bin/env python3
"""Open Lodestone's live view in headless Chromium and report what it shows.

Drives Debian's chromium through chromedriver (Selenium). Samples the compass card
(#card: the heading drawn, its timestamp, accuracy, and the rotation of the drawing)
for a while, waits for an event of a given kind in the event list, takes screenshots,
and prints one JSON object on stdout. The LodestoneHTTP tests compare it with the truth
of the simulated board they replay; by hand it checks a running `lodestone serve --http`.

    tools/.venv/bin/python tools/browser/check-live-view.py --url http://127.0.0.1:8080/ \
        --seconds 10 --event magneticDisturbance --screenshot /tmp/live.png
"""
import argparse
import json
import os
import re
import sys
import time

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait


def browser(width, height):
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    options.add_argument("--headless=new")
    options.add_argument(f"--window-size={width},{height}")
    options.add_argument("--disable-gpu")
    options.add_argument("--disable-dev-shm-usage")
    if os.geteuid() == 0:
        options.add_argument("--no-sandbox")  # Chromium refuses to run as root with its sandbox
    # The system's chromedriver: Selenium Manager must not try to download one.
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)


def card(driver):
    return driver.execute_script("""
        const c = document.getElementById('card');
        return { heading: c.dataset.heading, north: c.dataset.north, timestamp: c.dataset.timestamp,
                 accuracy: c.dataset.accuracy, transform: c.getAttribute('transform'),
                 trueText: document.getElementById('true-heading').textContent,
                 connection: document.getElementById('connection').textContent,
                 pitch: document.getElementById('pitch').textContent,
                 roll: document.getElementById('roll').textContent };""")


def number(text):
    try:
        return float(text)
    except (TypeError, ValueError):
        return None


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--url", required=True)
    p.add_argument("--seconds", type=float, default=10, help="how long to sample the rose")
    p.add_argument("--interval", type=float, default=0.25)
    p.add_argument("--event", help="wait for an event of this kind in the event list")
    p.add_argument("--screenshot", action="append", default=[], help="PNG path (repeat for copies)")
    p.add_argument("--size", default="1400x1000")
    args = p.parse_args()
    width, height = (int(v) for v in args.size.split("x"))

    driver = browser(width, height)
    result = {"samples": [], "event": None, "errors": []}
    try:
        driver.get(args.url)
        WebDriverWait(driver, 15).until(lambda d: d.find_element(By.ID, "connection").text == "live")
        WebDriverWait(driver, 15).until(lambda d: card(d)["heading"])
        end = time.monotonic() + args.seconds
        while time.monotonic() < end:
            c = card(driver)
            rotation = re.match(r"rotate\((-?[0-9.]+)\)", c["transform"] or "")
            result["samples"].append({
                "heading": number(c["heading"]), "timestamp": number(c["timestamp"]),
                "accuracy": number(c["accuracy"]), "north": c["north"],
                "rotation": float(rotation.group(1)) if rotation else None,
                "trueText": c["trueText"], "pitch": c["pitch"], "roll": c["roll"]})
            time.sleep(args.interval)
        if args.event:
            selector = f'#events li[data-event="{args.event}"]'
            try:
                WebDriverWait(driver, 30).until(lambda d: d.find_elements(By.CSS_SELECTOR, selector))
                result["event"] = driver.find_element(By.CSS_SELECTOR, selector).text
            except Exception as error:  # noqa: BLE001 - reported, not raised
                result["errors"].append(f"no {args.event} event: {error}")
        for path in args.screenshot:
            driver.save_screenshot(path)
        result["console"] = [entry.get("message") for entry in driver.get_log("browser")
                             if entry.get("level") == "SEVERE"]
    finally:
        driver.quit()
    json.dump(result, sys.stdout)
    print()


if __name__ == "__main__":
    main()
