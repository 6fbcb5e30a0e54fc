#!/usr/bin/env python3
"""Generate Examples/demo/sample.jsonl, the sample corpus that `make demo` indexes.

The corpus imitates the content of a personal app suite: a sobriety / wellbeing journal
(streak days, triggers, reflections) and a household app (recipes, expenses). Items are
written from hand-made vocabulary combined by a seeded random generator, so the output is
byte-for-byte reproducible:

    python3 Examples/demo/make_sample.py            # rewrites sample.jsonl next to this file
    python3 Examples/demo/make_sample.py --check    # exits 1 if the committed file is stale

Standard library only. The demo's "now" is 2026-12-02T12:00:00Z (a Wednesday); every item is
dated between 2026-06-01 and that instant.
"""

import argparse
import datetime as dt
import json
import os
import random
import sys

SEED = 20261202
NOW = dt.datetime(2026, 12, 2, 12, 0, 0)
FIRST_DAY = dt.date(2026, 6, 1)
LAST_DAY = NOW.date()
SOBER_SINCE = dt.date(2026, 4, 22)  # day 1 of the streak; 2026-06-01 is day 41
BASE_URL = "https://example.app"
URL_SECTION = {
    "streakDay": "streak",
    "trigger": "triggers",
    "reflection": "reflections",
    "recipe": "recipes",
    "expense": "expenses",
}

rng = random.Random(SEED)


# ---------------------------------------------------------------------------------------------
# helpers


def days():
    d = FIRST_DAY
    while d <= LAST_DAY:
        yield d
        d += dt.timedelta(days=1)


def at(day, hour, minute=None):
    """An ISO 8601 UTC timestamp on `day`; times on the demo's 'today' stay before NOW."""
    if minute is None:
        minute = rng.randrange(0, 60)
    t = dt.datetime(day.year, day.month, day.day, hour, minute)
    if t >= NOW:
        t = NOW - dt.timedelta(minutes=rng.randrange(5, 90))
    return t.strftime("%Y-%m-%dT%H:%M:%SZ")


def iso(day, hour=23, minute=59):
    return dt.datetime(day.year, day.month, day.day, hour, minute).strftime("%Y-%m-%dT%H:%M:%SZ")


def random_day(start=FIRST_DAY, end=LAST_DAY):
    span = (end - start).days
    return start + dt.timedelta(days=rng.randrange(span + 1))


def streak_number(day):
    return (day - SOBER_SINCE).days + 1


def slug(text):
    out = []
    for ch in text.lower():
        if ch.isalnum():
            out.append(ch)
        elif out and out[-1] != "-":
            out.append("-")
    return "".join(out).strip("-")


def pick(seq, k):
    return rng.sample(list(seq), k)


def money(x):
    return f"${x:,.2f}"


def cap_keywords(words, allow_empty=True):
    """0-5 distinct lower-case keywords; roughly one item in ten gets none."""
    seen = []
    for w in words:
        w = w.lower()
        if w not in seen:
            seen.append(w)
    if allow_empty and rng.random() < 0.1:
        return []
    return seen[:5]


ITEMS = []
TITLES = set()
PER_DAY_COUNTER = {}


def make_id(prefix, day):
    key = (prefix, day)
    PER_DAY_COUNTER[key] = PER_DAY_COUNTER.get(key, 0) + 1
    return f"{prefix}-{day.isoformat()}-{PER_DAY_COUNTER[key]}"


def add(item_id, domain, title, content, keywords, date, protect=False, **extra):
    assert title not in TITLES, f"duplicate title: {title}"
    TITLES.add(title)
    item = {
        "id": item_id,
        "domain": domain,
        "title": title,
        "content": content,
        "keywords": keywords,
        "date": date,
        "url": f"{BASE_URL}/{URL_SECTION[domain]}/{item_id}",
    }
    item.update(extra)
    item["_protect"] = protect  # never flagged private/hidden/expired; stripped before writing
    ITEMS.append(item)
    return item


# ---------------------------------------------------------------------------------------------
# streak days

OPENINGS_BY_SEASON = {
    "summer": [
        "Hot, bright morning; iced coffee on the fire escape.",
        "Woke up at six with the sun already up.",
        "Foggy start that burned off by ten.",
        "Long summer evening, light until almost nine.",
        "Sticky, humid day, the kind that used to mean cold beer on the roof.",
        "Windows open all night, slept like a stone.",
    ],
    "autumn": [
        "Crisp morning, the first time I needed a jacket.",
        "Leaves are finally turning on our street.",
        "Grey, drizzly day from start to finish.",
        "Dark by six now, which used to be drinking o'clock.",
        "Clear blue sky, warmer than it looked.",
        "Rain all day; the whole city smelled like wet pavement.",
    ],
    "winter": [
        "Cold, clear morning with frost on the car windows.",
        "Short day, lit candles early and put the kettle on.",
        "Raw, windy morning; wore the big scarf.",
    ],
    "any": [
        "Woke up before the alarm and actually felt rested.",
        "Slow start: coffee, journal, ten minutes of breathing.",
        "Rough night of sleep but got up anyway.",
        "Made the bed first thing. Small win.",
        "Read the daily reflection before checking my phone.",
        "Alarm, shower, oatmeal, out the door. Routine is holding me up.",
        "Woke up with a clear head, which still surprises me.",
    ],
}

ACTIVITIES = [
    ("calm morning walk, called my sponsor",
     "Walked the long loop around the lake and called Dana on the way back; she reminded me to keep it simple.",
     ["walk", "sponsor"]),
    ("7pm meeting on Church Street",
     "Went to the 7pm meeting on Church Street and actually raised my hand to share.",
     ["meeting", "sharing"]),
    ("cooked dinner instead of ordering in",
     "Cooked a real dinner instead of ordering takeout, and ate it at the table like an adult.",
     ["cooking", "dinner"]),
    ("bouldering with Jess",
     "Bouldered for an hour with Jess at the climbing gym; my forearms are toast.",
     ["climbing", "friends"]),
    ("quiet night, early to bed",
     "Stayed in, read a novel, lights out by ten.",
     ["sleep", "reading"]),
    ("long run along the Embarcadero",
     "Ran six miles along the Embarcadero, still the best head-clearer I know.",
     ["running", "exercise"]),
    ("coffee with Dana after the meeting",
     "Grabbed coffee with Dana after the meeting and talked through my step four inventory.",
     ["sponsor", "steps"]),
    ("busy workday, stayed steady",
     "Back-to-back meetings all day, but I stayed steady and didn't spiral.",
     ["work", "calm"]),
    ("noon yoga and a nap",
     "Went to the noon yoga class and then took an unapologetic nap.",
     ["yoga", "rest"]),
    ("dinner out with Sam, no wine",
     "Dinner with Sam at the Italian place; ordered a blood-orange soda and didn't miss the wine.",
     ["dinner", "partner"]),
    ("farmers market and meal prep",
     "Farmers market in the morning, then two hours of meal prep for the week.",
     ["cooking", "market"]),
    ("called Mom, good talk",
     "Called Mom and it was an easy, good conversation for once.",
     ["family"]),
    ("journaled through a bad mood",
     "Woke up irritable for no reason and journaled through it instead of stewing.",
     ["journaling", "mood"]),
    ("bike ride out to Ocean Beach",
     "Biked out to Ocean Beach and back, sand in everything.",
     ["cycling", "beach"]),
    ("set up chairs before the meeting",
     "Showed up early to set up chairs; service keeps me out of my own head.",
     ["service", "meeting"]),
    ("movie night at home",
     "Movie night at home with popcorn and a pot of mint tea.",
     ["movie", "tea"]),
    ("rough afternoon, texted the group",
     "The afternoon got rough, so I texted the group chat and three people answered within minutes.",
     ["support", "craving"]),
    ("an hour on the guitar",
     "Dug out the guitar and played for an hour; my fingers remember more than I thought.",
     ["guitar", "music"]),
    ("deep-cleaned the kitchen",
     "Deep-cleaned the kitchen and took the last empty bottles to recycling.",
     ["cleaning", "home"]),
    ("hike on Mount Tam",
     "Hiked the Dipsea trail on Mount Tam with Jess and Theo; legs shaking on the stairs.",
     ["hiking", "friends"]),
    ("therapy session, lots to process",
     "Therapy today. Lots to process about Dad, and I let myself feel it instead of numbing it.",
     ["therapy", "family"]),
    ("worked late, took the long way home",
     "Worked late and took the long way home, past zero bars, on purpose.",
     ["work", "commute"]),
    ("pottery class, wonky bowl",
     "Pottery class: made a very wonky bowl that I'm keeping anyway.",
     ["pottery", "hobby"]),
    ("tried a new mocktail",
     "Tried a new mocktail with ginger, lime and soda, and it hit the spot.",
     ["mocktail", "drinks"]),
    ("lazy day, no guilt",
     "Lazy day on the couch with a book, and zero guilt about it.",
     ["rest", "reading"]),
    ("morning shift at the food bank",
     "Volunteered for the morning shift at the food bank, packing produce boxes.",
     ["volunteering", "service"]),
    ("Big Book on the train",
     "Read a chapter of the Big Book on the train to work.",
     ["reading", "recovery"]),
    ("brunch with the old crew, ordered coffee",
     "Brunch with the old crew; they ordered mimosas, I ordered a second coffee and it was fine.",
     ["brunch", "friends"]),
    ("fifteen minutes of meditation",
     "Fifteen minutes of meditation this morning, the longest sit yet.",
     ["meditation"]),
    ("laps at the Y",
     "Swam laps at the Y, forty minutes without stopping.",
     ["swimming", "exercise"]),
    ("board games with the neighbours",
     "Board game night with the neighbours; I brought sparkling cider and lost at Catan.",
     ["games", "neighbours"]),
    ("long phone call with my brother",
     "Long phone call with Alex; we talked about the summer I don't remember much of.",
     ["family", "brother"]),
    ("home early, soup and a bath",
     "Came home early, made soup, took a bath, done.",
     ["self-care"]),
    ("sat with a craving until it passed",
     "A craving hit hard around six; I sat with it for twenty minutes and watched it pass.",
     ["craving", "urge-surfing"]),
    ("spent the evening writing",
     "Spent the evening writing instead of doom-scrolling.",
     ["writing"]),
    ("walked Mrs. Patel's dog",
     "Walked Mrs. Patel's dog while she recovers from surgery; the dog is a better listener than most.",
     ["dog", "walk"]),
    ("my sponsee called, helped her through",
     "My sponsee called in tears and I got to be the calm voice for once.",
     ["sponsee", "service"]),
    ("grocery run, skipped the wine aisle",
     "Grocery run after work; went straight past the wine aisle without slowing down.",
     ["groceries"]),
    ("everything went sideways, still sober",
     "Everything went sideways at work, but I'm ending the day sober, and that's the job.",
     ["work", "resilience"]),
    ("afternoon at the library",
     "Spent the afternoon at the library with headphones and a stack of cookbooks.",
     ["library", "reading"]),
]

CRAVING_LOW = [
    "Barely thought about drinking today.",
    "No real cravings, just a passing thought at dinner.",
    "Cravings: basically none. Noticing how rare that used to be.",
]
CRAVING_MID = [
    "A craving showed up around five; rode it out with seltzer and a shower.",
    "Medium craving after work, gone by the time I'd eaten.",
    "Felt the old tug when I smelled beer outside a bar, then it faded.",
]
CRAVING_HIGH = [
    "Strong craving after dinner. Played the tape forward and texted the group chat.",
    "Hard evening; the urge was loud. Went to bed early to end the day sober.",
    "Big craving out of nowhere at 9pm. Called Dana, ate something, it passed.",
]
MOODS = ["steady", "tired but okay", "hopeful", "a little flat", "restless", "content",
         "grateful", "anxious in the morning, calmer by night", "light", "raw"]
GRATITUDE = ["Dana's patience", "clean sheets", "a quiet mind", "the morning light", "Sam",
             "my body for carrying me", "the Tuesday group", "hot showers", "a paycheck",
             "good coffee", "Mom's voice", "remembering last night", "the dog next door",
             "a full fridge", "my bike", "honest friends", "not being hungover"]


def season(day):
    if day.month in (6, 7, 8):
        return "summer"
    if day.month in (9, 10, 11):
        return "autumn"
    return "winter"


MILESTONES = {
    100: ("Day 100 — triple digits, cake at the meeting",
          "One hundred days. The Thursday group sang badly and there was a lemon cake with a "
          "candle shaped like a 1. I didn't think I'd make it to day ten. Dana gave me a coin she "
          "carried for a year. Cravings: almost none, just a lot of feelings.",
          ["milestone", "100 days", "chip"], "🎉 Day 100"),
    150: ("Day 150 — quiet milestone, walked to the water",
          "Day 150 and nobody knew but me, which felt right. Walked down to the water after work, "
          "sat on the pier for an hour and just let the number sink in. Grateful for every boring, "
          "sober evening that added up to this.",
          ["milestone", "150 days"], None),
    184: ("Day 184 — six months sober",
          "Six months. Half a year of waking up knowing what I did the night before. Picked up the "
          "six-month chip at the Church Street meeting and shared about the first week, when I "
          "couldn't sleep or eat. Sam brought flowers. Cravings: a flicker at the celebration dinner, "
          "which is funny.",
          ["milestone", "six months", "chip"], "🎉 Six months"),
    200: ("Day 200 — two hundred days, chip at the meeting",
          "Two hundred days sober. Took the chip at the Saturday meeting with my hands shaking. "
          "Called Mom afterwards and she cried a little, the good kind. Celebrated with a "
          "yerba mate latte and a long walk.",
          ["milestone", "200 days", "chip"], "🎉 Day 200"),
    219: ("Day 219 — Thanksgiving, sober and present",
          "Thanksgiving at my parents' house. Dad opened the wine at four and I had my cranberry "
          "spritzer in a wine glass so nobody fussed. Left before the after-dinner brandy. Present "
          "for the whole thing, remembered every conversation. Grateful, actually grateful.",
          ["thanksgiving", "family", "holiday"], None),
}


HOLIDAYS = {dt.date(2026, 7, 3), dt.date(2026, 9, 7), dt.date(2026, 11, 26), dt.date(2026, 11, 27)}
WEEKEND_ONLY = {"farmers market and meal prep", "bike ride out to Ocean Beach", "hike on Mount Tam",
                "lazy day, no guilt", "brunch with the old crew, ordered coffee",
                "coffee with Dana after the meeting", "morning shift at the food bank"}
WORKDAY_ONLY = {"busy workday, stayed steady", "worked late, took the long way home",
                "Big Book on the train", "everything went sideways, still sober", "noon yoga and a nap"}


def gen_streak_days():
    forced = {SOBER_SINCE + dt.timedelta(days=n - 1) for n in MILESTONES}
    acts = []
    for day in days():
        recent = day >= dt.date(2026, 11, 16)
        if not (recent or day in forced or rng.random() < 0.42):
            continue
        n = streak_number(day)
        item_id = f"streakday-{day.isoformat()}"
        date = at(day, rng.choice([20, 21, 22]) if day != LAST_DAY else 8)
        if n in MILESTONES:
            title, content, kws, display = MILESTONES[n]
            extra = {"rankingHint": 90}
            if display:
                extra["displayName"] = display
            add(item_id, "streakDay", title, content, kws, date, protect=True, **extra)
            continue
        if day == LAST_DAY:
            add(item_id, "streakDay", f"Day {n} — early journal before work",
                "Writing this before work: slept eight hours, oatmeal, walked to the train. Cold, "
                "clear morning. Office holiday party invite landed in my inbox; deciding later. "
                "Meeting tonight. (craving 2/10)", ["morning", "routine"], date, protect=True)
            continue
        weekend = day.weekday() >= 5 or day in HOLIDAYS

        def suits(activity):
            return not (activity[0] in WEEKEND_ONLY and not weekend) and not (activity[0] in WORKDAY_ONLY and weekend)

        if not any(suits(a) for a in acts):  # deal a fresh shuffled deck of activities
            acts = ACTIVITIES[:]
            rng.shuffle(acts)
        chosen = [a for a in acts if suits(a)][-1]
        acts.remove(chosen)
        summary, sentence, kws = chosen
        pool = OPENINGS_BY_SEASON[season(day)] + OPENINGS_BY_SEASON["any"]
        level = rng.choices([rng.randint(0, 2), rng.randint(3, 5), rng.randint(6, 8)],
                            weights=[5, 4, 1])[0]
        craving_text = rng.choice(CRAVING_LOW if level <= 2 else CRAVING_MID if level <= 5 else CRAVING_HIGH)
        grateful = ", ".join(pick(GRATITUDE, rng.choice([2, 3])))
        parts = [rng.choice(pool), sentence, f"{craving_text} (craving {level}/10)",
                 f"Mood: {rng.choice(MOODS)}.", f"Grateful for {grateful}."]
        if rng.random() < 0.3:
            parts.pop(0)
        content = " ".join(parts)
        title = f"Day {n} — {summary}"
        extra = {}
        if rng.random() < 0.08:
            extra["rankingHint"] = rng.randint(40, 70)
        add(item_id, "streakDay", title, content, cap_keywords(kws), date,
            protect=day >= dt.date(2026, 12, 1), **extra)


# ---------------------------------------------------------------------------------------------
# triggers

# Each scenario: title variants (each used at most once), the situation text, keywords, and an
# optional fixed date / expiry per title variant.  {name}, {bar} etc. are filled per item.
NAMES = ["Priya", "Marcus", "Hannah", "Luis", "Tom", "Keiko", "Rachel", "Ben"]
BARS = ["the Irish pub on 24th", "Zeitgeist", "the brewery by the office", "the rooftop bar downtown",
        "the wine bar on Valencia", "Toronado"]

TRIGGER_SCENARIOS = [
    (["Friday happy hour invite", "Team drinks after the product launch",
      "Coworkers heading to the pub after work"],
     "{name} asked if I was coming to {bar} after work. Everyone was going, and I felt the pull to "
     "have just one so I wouldn't be the odd one out.",
     ["happy hour", "coworkers", "social pressure"]),
    (["Argument with my boss", "Heated disagreement with my boss over the roadmap"],
     "Got into it with my boss in front of the team about the roadmap. I said more than I meant "
     "to and spent the rest of the afternoon replaying it.",
     ["boss", "conflict", "anger"]),
    (["Stressful meeting with my manager", "One-on-one with my manager went badly"],
     "My manager spent our whole one-on-one going through every missed target on the quarterly "
     "review. I kept nodding, heart pounding, jaw clenched, and afterwards I sat in the car for "
     "twenty minutes feeling about two inches tall.",
     ["manager", "performance review", "stress"]),
    (["Stressful deadline at work", "Late night finishing the quarterly report",
      "Client deliverable moved up two days"],
     "The deadline got pulled forward and I was on edge all day: nervous stomach, snapping at "
     "people, refreshing my inbox every thirty seconds. The old reflex says a drink will take the "
     "edge off when it's done.",
     ["deadline", "work stress", "anxiety"]),
    (["Payday and nothing planned", "Bonus landed in my account"],
     "Money hit the account and my brain immediately went to 'celebrate'. Old pattern: payday "
     "meant a big night out and a lost weekend.",
     ["payday", "celebration", "money"]),
    (["Lonely Sunday evening", "Empty apartment after the weekend", "Nobody answered my texts tonight"],
     "Sam was away and the apartment was too quiet. Loneliness is sneaky; it doesn't feel like a "
     "craving at first, just a kind of hollowness that wants filling.",
     ["loneliness", "evening", "alone"]),
    (["Cousin Emma's wedding with an open bar", "Champagne toast at the wedding reception"],
     "Open bar, champagne on every table, a toast every twenty minutes. Everyone was loose and "
     "happy and I felt like I was watching through glass.",
     ["wedding", "open bar", "champagne"]),
    (["Walking past my old bar on Valencia Street", "Passed the sports bar where I used to watch games"],
     "Walked right past the place I used to close down three nights a week. Same neon sign, same "
     "bartender visible through the window. My feet slowed down on their own.",
     ["old haunts", "bar", "memories"]),
    (["Family dinner and Dad's wine collection", "Thanksgiving at my parents' house"],
     "Dad brought out the good bottles and kept offering 'just a taste'. Nobody meant harm, but "
     "the whole table revolves around the wine.",
     ["family", "wine", "holiday"]),
    (["Watching the game at a friend's place", "Fantasy football draft party"],
     "Coolers of beer, wings, the game on. Sports and drinking were welded together for me for "
     "fifteen years.",
     ["sports", "beer", "friends"]),
    (["Exhausted after a sleepless night", "Insomnia at 3am"],
     "Couldn't sleep, lay there until three staring at the ceiling. Tired me is a worse version "
     "of me: thin patience, loud cravings.",
     ["insomnia", "tired", "halt"]),
    (["Fight with Sam about chores", "Argument with my partner over money"],
     "Sam and I had the same fight again. I wanted to slam the door and go somewhere that serves "
     "drinks and doesn't ask questions.",
     ["partner", "conflict", "resentment"]),
    (["Celebrating Priya's promotion", "Friend's birthday at a rooftop bar"],
     "Celebrations are the hardest. The clinking glasses, the 'you have to have one for this'. "
     "Happy occasions were always my best excuse.",
     ["celebration", "friends", "bar"]),
    (["Airport layover with nothing to do", "Hotel minibar on a work trip"],
     "Alone in a strange place with time to kill and nobody who knows me. Travel used to be a "
     "permission slip.",
     ["travel", "hotel", "boredom"]),
    (["Old drinking buddy texted me", "Ran into Mike from the old crew"],
     "Mike reached out like nothing had changed: 'drinks this weekend?'. Hearing from the old "
     "crew brings back the good memories and skips the bad ones.",
     ["old friends", "nostalgia"]),
    (["Wine aisle at the grocery store", "Beer display by the checkout"],
     "They moved the seltzer next to the wine, so I had to walk right through it. Rows of bottles "
     "I used to know by label.",
     ["grocery store", "wine", "environment"]),
    (["Bored on a rainy Saturday", "Long weekend with no plans"],
     "Nothing to do and all day to do it. Boredom used to be solved by 2pm with a bottle.",
     ["boredom", "weekend"]),
    (["Concert at the Fillmore", "Outdoor music festival with friends"],
     "Great music, sticky floors, everyone holding a tall can. The crowd energy made me want to "
     "lose myself the old way.",
     ["concert", "music", "crowds"]),
    (["Anniversary of Grandpa's death", "Bad news from home"],
     "Grief came in sideways today. Part of me wanted to do what Grandpa would have done: pour "
     "one out, then pour another.",
     ["grief", "family", "sadness"]),
    (["Unexpected car repair bill", "Rent increase notice"],
     "A surprise bill I can't really afford. Money panic makes me want to check out entirely.",
     ["money", "stress", "bills"]),
    (["Beer commercial during the game", "Movie where everyone was drinking"],
     "On screen, drinking looks golden and easy, no consequences. It shouldn't work on me "
     "anymore, and still.",
     ["media", "advertising"]),
    (["Fourth of July barbecue", "Backyard barbecue with coolers of beer"],
     "Hot afternoon, grill smoke, a cooler full of ice and beer in the middle of the yard. "
     "Summer smells like drinking to me.",
     ["barbecue", "summer", "beer"]),
    (["Harsh feedback in code review", "Presentation fell flat in front of the client"],
     "Criticism at work lands like a verdict on me as a person. I went straight into shame, "
     "and shame is where the cravings live.",
     ["criticism", "shame", "work"]),
    (["Dinner date at a wine bar", "Waiter pushing the cocktail menu"],
     "The server came back three times to ask about drinks. Saying no once is easy; saying no "
     "while everyone watches is harder.",
     ["restaurant", "dating", "social pressure"]),
    (["Office holiday party invite", "Mulled wine stand at the holiday market"],
     ["Holiday season is one long invitation to drink. The invite arrived with a cartoon "
      "champagne bottle on it.",
      "The holiday market smelled of cinnamon and hot wine, and the stand was right by the "
      "entrance. Everybody walking around with a steaming paper cup."],
     [["holidays", "party", "office"], ["holidays", "mulled wine", "market"]]),
    (["Thinking I could handle just one", "Feeling like I've got this beat"],
     "A good stretch of days and a quiet voice saying 'you're fine now, one won't hurt'. That "
     "voice is the most dangerous one.",
     ["complacency", "overconfidence"]),
    (["Neighbours' loud party next door"],
     "Bass through the wall until 2am, laughter, bottles clinking into the recycling. FOMO and "
     "irritation at the same time.",
     ["neighbours", "party", "fomo"]),
    (["Back pain flare-up"],
     "My back seized up and the old logic showed up right on time: a few drinks would take the "
     "edge off the pain.",
     ["pain", "body", "self-medicating"]),
    (["Networking event downtown", "Meeting Sam's friends for the first time"],
     "Room full of strangers, name tags, everyone holding a glass. Social anxiety plus free "
     "wine is my oldest combination.",
     ["social anxiety", "networking"]),
    (["Hungry and angry after a long commute", "Skipped lunch and got snappy"],
     "Classic HALT: hungry, angry, tired, all at once. By the time I got home I was furious at "
     "nothing and thinking about the liquor store on the corner.",
     ["halt", "hunger", "commute"]),
]

FIXED_TRIGGER_DATES = {
    "Fourth of July barbecue": (dt.date(2026, 7, 4), dt.date(2026, 7, 5)),
    "Cousin Emma's wedding with an open bar": (dt.date(2026, 8, 15), dt.date(2026, 8, 16)),
    "Champagne toast at the wedding reception": (dt.date(2026, 9, 26), None),
    "Concert at the Fillmore": (dt.date(2026, 10, 9), dt.date(2026, 10, 10)),
    "Outdoor music festival with friends": (dt.date(2026, 8, 8), dt.date(2026, 8, 10)),
    "Thanksgiving at my parents' house": (dt.date(2026, 11, 26), None),
    "Office holiday party invite": (dt.date(2026, 12, 2), dt.date(2026, 12, 19)),
    "Mulled wine stand at the holiday market": (dt.date(2026, 11, 28), dt.date(2026, 12, 24)),
    "Stressful meeting with my manager": (dt.date(2026, 11, 10), None),
    "Stressful deadline at work": (dt.date(2026, 11, 24), None),
    "Fantasy football draft party": (dt.date(2026, 9, 6), dt.date(2026, 9, 7)),
    "Friday happy hour invite": (dt.date(2026, 11, 20), None),
    "Exhausted after a sleepless night": (dt.date(2026, 12, 1), None),
    "Hotel minibar on a work trip": (dt.date(2026, 10, 21), None),
    "Airport layover with nothing to do": (dt.date(2026, 6, 19), None),
}
PROTECTED_TRIGGERS = {"Stressful meeting with my manager", "Stressful deadline at work",
                      "Friday happy hour invite", "Office holiday party invite",
                      "Argument with my boss"}

FEELINGS = [
    "Felt restless and irritable.", "Anxious: chest tight, breathing shallow.",
    "Underneath the irritation I was mostly lonely.", "Resentful, and wanting to numb out.",
    "Jittery and on edge for the rest of the evening.", "Sad in a heavy, tired way.",
    "Keyed up, couldn't sit still.", "Embarrassed, then angry about being embarrassed.",
    "Went flat and empty afterwards.",
]
FEELING_WORD = dict(zip(FEELINGS, ["irritable", "anxious", "lonely", "resentful", "on edge", "sad",
                                   "restless", "embarrassed", "empty"]))
RESPONSES = [
    "Left early and drove home with the windows down.",
    "Ordered a soda water with lime and held onto it like a prop.",
    "Texted Dana and she called me back within five minutes.",
    "Played the tape forward: the 2am version of me, the morning after.",
    "Went to the 7pm meeting on Church Street instead.",
    "Ate a real meal, drank two glasses of water, and the worst of it passed.",
    "Did the box-breathing thing in the bathroom for five minutes.",
    "Went for a hard run and came back too tired to care.",
    "Told Sam what was going on out loud, which took most of its power away.",
    "Made a yerba mate latte and sat on the stoop until it passed.",
    "Wrote the craving down in the app and rated it; it peaked and dropped in about fifteen minutes.",
    "Went to bed early. Tomorrow-me will be glad.",
]


# When a trigger can plausibly happen: (months or None, weekdays or None; Monday = 0).
WEEKDAYS = {0, 1, 2, 3, 4}
TRIGGER_WHEN = {
    "Team drinks after the product launch": (None, WEEKDAYS),
    "Coworkers heading to the pub after work": (None, {3, 4}),
    "Argument with my boss": (None, WEEKDAYS),
    "Heated disagreement with my boss over the roadmap": (None, WEEKDAYS),
    "One-on-one with my manager went badly": (None, WEEKDAYS),
    "Late night finishing the quarterly report": ({9, 10}, WEEKDAYS),
    "Client deliverable moved up two days": (None, WEEKDAYS),
    "Payday and nothing planned": (None, {4}),
    "Lonely Sunday evening": (None, {6}),
    "Empty apartment after the weekend": (None, {6, 0}),
    "Family dinner and Dad's wine collection": (None, {5, 6}),
    "Watching the game at a friend's place": ({9, 10, 11}, {6}),
    "Celebrating Priya's promotion": (None, {3, 4}),
    "Friend's birthday at a rooftop bar": ({6, 7, 8, 9}, {4, 5}),
    "Bored on a rainy Saturday": ({10, 11}, {5}),
    "Long weekend with no plans": ({9}, {5}),
    "Backyard barbecue with coolers of beer": ({6, 7, 8}, {5, 6}),
    "Harsh feedback in code review": (None, WEEKDAYS),
    "Presentation fell flat in front of the client": (None, WEEKDAYS),
    "Networking event downtown": (None, {1, 2, 3}),
    "Hungry and angry after a long commute": (None, WEEKDAYS),
    "Skipped lunch and got snappy": (None, WEEKDAYS),
    "Dinner date at a wine bar": (None, {4, 5}),
    "Neighbours' loud party next door": (None, {4, 5}),
    "Beer commercial during the game": ({9, 10, 11}, {6}),
}


TRIGGER_HOUR = {"Office holiday party invite": 10, "Friday happy hour invite": 9,
                "Thanksgiving at my parents' house": 19, "Exhausted after a sleepless night": 7,
                "Insomnia at 3am": 11, "Stressful meeting with my manager": 15}


def trigger_day(title):
    months, weekdays = TRIGGER_WHEN.get(title, (None, None))
    while True:
        day = random_day(end=LAST_DAY - dt.timedelta(days=2))
        if (months is None or day.month in months) and (weekdays is None or day.weekday() in weekdays):
            if weekdays is not None and weekdays <= WEEKDAYS and day in HOLIDAYS:
                continue
            return day


def gen_triggers():
    for situations, text, kws in TRIGGER_SCENARIOS:
        for title in situations:
            fixed = FIXED_TRIGGER_DATES.get(title)
            if fixed:
                day, expires = fixed
            else:
                day, expires = trigger_day(title), None
            level = rng.randint(3, 9)
            feeling = rng.choice(FEELINGS)
            content = " ".join([
                (text if isinstance(text, str) else text[situations.index(title)]).format(
                    name=rng.choice(NAMES), bar=rng.choice(BARS)),
                feeling,
                f"Craving intensity {level}/10.",
                rng.choice(RESPONSES),
            ])
            extra = {}
            if expires:
                extra["expires"] = iso(expires)
            if level >= 8 and rng.random() < 0.5:
                extra["rankingHint"] = rng.randint(60, 85)
            workish = TRIGGER_WHEN.get(title, (None, None))[1] == WEEKDAYS
            hour = TRIGGER_HOUR.get(title) or rng.choice([10, 11, 14, 16, 17] if workish else [13, 18, 19, 20, 21, 22])
            title_kws = kws if isinstance(kws[0], str) else kws[situations.index(title)]
            add(make_id("trigger", day), "trigger", title, content,
                cap_keywords(title_kws + ([FEELING_WORD[feeling]] if rng.random() < 0.4 else [])),
                at(day, hour), protect=title in PROTECTED_TRIGGERS, **extra)


# ---------------------------------------------------------------------------------------------
# reflections

REFLECTION_THEMES = {
    "gratitude": [
        "I used to think gratitude lists were corny. Now they're the thing that pulls me out of a sulk.",
        "Today the list was short: coffee, a text from Dana, the bus arriving on time. It was enough.",
        "It's hard to feel sorry for myself and grateful at the same time; the brain won't hold both.",
        "Most of what I'm grateful for would have been invisible to me a year ago.",
        "Writing three things down every night has quietly changed how the days feel.",
        "Sam said I seem lighter lately. I think it's because I'm noticing the good stuff instead of waiting for the weekend.",
    ],
    "sleep": [
        "For years I thought drinking helped me sleep. It knocked me out; that is not the same thing.",
        "Now I fall asleep slower but wake up actually rested, and the difference is enormous.",
        "The first month was brutal: sweats, 3am wake-ups, vivid dreams about drinking.",
        "Evenings are longer without the drink. I had to learn what to do with the hours between dinner and bed.",
        "A dark room, no phone, a boring book. It's not magic, but it works most nights.",
        "I used to wake up doing inventory of the night before. Now I just wake up.",
    ],
    "friends": [
        "Some friendships were really drinking arrangements, and those faded fast.",
        "The friends who stayed are the ones who asked how I was actually doing.",
        "I'm learning that I can be fun without a drink; I'm just a different kind of fun, earlier in the evening.",
        "Saying no to plans still makes me feel guilty, but less each time.",
        "Jess invited me climbing instead of to the bar. I didn't know how much I needed someone to do that.",
        "It's lonely in the middle, between the old crew and whatever comes next.",
    ],
    "family": [
        "Mom doesn't really know what to say about my not drinking, so she mostly says nothing, which is its own kind of message.",
        "Alex remembers things from the bad years that I don't. Listening without defending myself is hard.",
        "Family gatherings are built around wine. I'm learning to bring my own drink and my own exit plan.",
        "Dad drinks the way I used to drink, and I can see it now. I don't know what to do with that.",
        "Making amends is less about the speech and more about showing up differently, again and again.",
        "Grandpa's stories were always told with a glass in hand. I want to keep the stories and leave the glass.",
    ],
    "work": [
        "Work stress used to have a reward at the end of the day. Now the day just ends, and I have to find another way to close it.",
        "I'm calmer in meetings than I used to be. Maybe because I'm not hungover, maybe because I'm paying attention.",
        "Setting a boundary with my manager felt terrifying and then, surprisingly, fine.",
        "I still check email at 10pm. The anxiety didn't leave with the alcohol; it just got louder without cover.",
        "Deadlines feel different sober: sharper in the moment, but I recover faster afterwards.",
        "I told one person at work that I don't drink. The world did not end.",
    ],
    "money": [
        "I did the math on what I used to spend at bars. It's more than my rent, some months.",
        "Budgeting with a clear head turns out to be mostly boring, which is the point.",
        "I'm putting the old bar money into a savings account I named 'Future Me'.",
        "Tracking expenses in the app shows where the money goes now: groceries, coffee, the climbing gym.",
        "Money anxiety used to be a reason to drink and drinking used to be a reason for money anxiety. Breaking one broke both.",
    ],
    "body": [
        "My face looks different. Less puffy, more like me.",
        "Running started as a way to burn off restlessness and turned into the best part of my week.",
        "I have energy in the mornings now, which is a sentence I never expected to write.",
        "Blood pressure is down, according to the doctor, and I'm sleeping seven or eight hours.",
        "My body keeps a memory of the evenings: 5pm still feels like a door opening.",
        "I eat breakfast now. Actual breakfast. It helps with almost everything.",
    ],
    "program": [
        "Dana says resentments are the number one offender. I keep finding more of them under the ones I've already listed.",
        "The first time I shared at a meeting my voice shook the whole time. Nobody cared, in the best way.",
        "Step four is a lot of writing and a lot of uncomfortable honesty about my part in things.",
        "Service is the part I resisted most, and it's the part that works fastest.",
        "I like the Tuesday group because nobody is performing. People just say how it is.",
        "One day at a time sounded like a slogan. Now it's a practical instruction.",
    ],
    "cravings": [
        "Cravings come in waves. If I don't feed them, they peak and roll back out, usually in under twenty minutes.",
        "Urge surfing: notice where it sits in my body, breathe into it, don't argue with it, just watch.",
        "The five o'clock witching hour is still the hardest. I schedule something for it on purpose.",
        "Playing the tape forward works better than willpower. I don't have to win an argument, just remember the ending.",
        "Some cravings are really hunger, or tiredness, or loneliness wearing a disguise.",
        "Rating each craving in the app shows a pattern: Fridays, after conflict, and when I skip lunch.",
    ],
    "emotions": [
        "Feeling things without anesthesia is strange: everything is louder and also more interesting.",
        "Anger is information. It usually means a boundary got crossed, often by me.",
        "Boredom is not an emergency. I keep having to relearn that.",
        "I cried at a dog food commercial. Apparently that's part of it.",
        "When I'm anxious I want to fix it immediately. Sitting with it for ten minutes usually fixes more.",
        "Shame tells me I'm the problem; guilt tells me I did something I can repair. I'm trying to listen to guilt.",
    ],
    "identity": [
        "I was always the fun one, the last one at the party. I don't know who I am at ten o'clock at night yet.",
        "Telling people 'I don't drink' gets easier with practice. Most people don't care as much as I feared.",
        "I'm discovering things I like: pottery, long walks, cooking for people.",
        "Being sober isn't an identity on its own. It's the floor I'm building everything else on.",
        "I used to think sober people were boring. Now I'm one, and I'm less bored than ever.",
    ],
    "routines": [
        "Sunday reset: laundry, meal prep, plan the week's meetings, call Dana.",
        "Cooking has become my evening ritual: chopping onions is a good replacement for pouring a drink.",
        "The tea cabinet is getting out of hand. Yerba mate, rooibos, three kinds of chamomile.",
        "A routine isn't exciting, but it leaves less room for the bad ideas to get in.",
        "I built a 'closing the day' routine: dishes, journal, five minutes of stretching, lights out.",
    ],
    "nature": [
        "Walking by the water is the cheapest therapy I know.",
        "I notice weather now: fog coming in over the hills, wind off the bay, the smell of eucalyptus.",
        "Hiking is the one place my brain goes fully quiet.",
        "There's a heron at the lake most mornings. I've started to think of it as a coworker.",
    ],
    "halfyear": [
        "Half a year ago I couldn't imagine a week. Now I can imagine a year, on good days.",
        "Six months of mornings without a hangover. I've stopped counting them as a miracle and started counting them as normal.",
        "The chip is in my wallet. I touch it on the train sometimes.",
        "What changed most isn't the drinking. It's that I keep promises now, small ones, to other people and to myself.",
        "Dana says the second six months are about who I'm becoming, not what I'm avoiding.",
    ],
    "autumn": [
        "Autumn light in the late afternoon makes everything look forgiven.",
        "The evenings got dark early this week, and the old 'cosy night in with a bottle' feeling came right on schedule.",
        "I'm building new autumn rituals: soup on Sundays, a walk at golden hour, cider without the hard part.",
        "The first rain of the season washed the whole city clean. I stood on the stoop and just breathed it in.",
    ],
    "summer": [
        "Summer without rosé turned out to be summer with more mornings.",
        "Every barbecue had a cooler in the middle of the yard. I brought my own drinks and my own exit time.",
        "Long light evenings used to mean patio drinks. This year they meant walks, bike rides, and early nights.",
        "I thought summer would be the hardest season sober. It was just the first one.",
        "The heat makes me want something cold in my hand; agua fresca does the job better than I expected.",
    ],
    "thanksgiving": [
        "Thanksgiving was the first one I remember in full. That alone made it worth it.",
        "Dad opened the wine at four like always. I had my cranberry spritzer in a wine glass and nobody fussed.",
        "I made a plan: bring my own drinks, have an exit time, call Dana before and after. I used all three.",
        "Mom hugged me at the door when I left and said I seemed like myself again.",
        "Grateful is a word I used to roll my eyes at. This year I said it at the table and meant it.",
    ],
    "december": [
        "December is one long invitation to drink: office party, the neighbours, the holiday market.",
        "I'm deciding now which parties I'll skip and which ones I'll go to for an hour, with my own drinks.",
        "Dana's rule: arrive late, leave early, always have something in your hand, always have your own ride.",
        "Last December is mostly a blur. This one I want to remember.",
        "I put the meeting schedule for the holidays in my calendar before any of the parties.",
    ],
    "progress": [
        "Progress isn't a straight line. Some weeks I feel bulletproof, some days I'm hanging on.",
        "Looking back at my first-month entries, I barely recognise that person. I'm proud of her.",
        "The number matters less than it used to. What matters is that today counts.",
        "I'm learning to be patient with myself the way Dana is patient with me.",
    ],
}

REFLECTIONS = [
    ("What I'm grateful for this month", "gratitude", None),
    ("Small things that made this week good", "gratitude", None),
    ("Gratitude list on a hard day", "gratitude", None),
    ("Sleeping through the night again", "sleep", None),
    ("Why my evenings feel so long now", "sleep", None),
    ("Which friendships survived", "friends", None),
    ("Learning to have fun without a drink", "friends", None),
    ("Saying no to the group chat plans", "friends", None),
    ("Talking to Mom about my drinking", "family", None),
    ("Making amends with my brother", "family", None),
    ("Seeing Dad clearly", "family", None),
    ("Bringing calm to work", "work", None),
    ("Work stress without the end-of-day reward", "work", None),
    ("Setting boundaries with my manager", "work", None),
    ("Where the bar money goes now", "money", None),
    ("Budgeting with a clear head", "money", None),
    ("My body at day 100", "body", dt.date(2026, 7, 31)),
    ("Running as a replacement ritual", "body", None),
    ("Energy in the mornings", "body", None),
    ("What Dana said about resentments", "program", None),
    ("First time sharing at a meeting", "program", dt.date(2026, 6, 9)),
    ("Working step four", "program", None),
    ("Cravings come in waves", "cravings", None),
    ("Urge surfing notes", "cravings", None),
    ("The five o'clock witching hour", "cravings", None),
    ("Feeling emotions without anesthesia", "emotions", None),
    ("Anger is information", "emotions", None),
    ("Boredom is not an emergency", "emotions", None),
    ("Who am I if I'm not the fun one?", "identity", None),
    ("Telling people I don't drink", "identity", None),
    ("Sunday reset routine", "routines", None),
    ("Cooking as my new evening ritual", "routines", None),
    ("The tea cabinet", "routines", None),
    ("Walking by the water", "nature", None),
    ("Autumn light", "autumn", dt.date(2026, 10, 18)),
    ("Summer without rosé", "summer", dt.date(2026, 8, 30)),
    ("Thanksgiving, remembered in full", "thanksgiving", dt.date(2026, 11, 27)),
    ("Getting ready for December parties", "december", dt.date(2026, 12, 1)),
    ("Progress is not a straight line", "progress", None),
    ("Looking back at the first month", "progress", dt.date(2026, 6, 3)),
    ("Half a year", "halfyear", dt.date(2026, 10, 23)),
    ("Patience, mostly with myself", "progress", None),
    ("Why I stopped hiding the seltzer", "identity", None),
    ("A letter to the person I was in March", "emotions", None),
    ("Noticing the weather again", "nature", None),
    ("The friend who invited me climbing", "friends", None),
    ("What a boring Tuesday taught me", "gratitude", dt.date(2026, 11, 24)),
]
PROTECTED_REFLECTIONS = {"Thanksgiving, remembered in full", "Getting ready for December parties",
                         "What a boring Tuesday taught me", "Setting boundaries with my manager"}

CLOSINGS = [
    "Writing it down so I remember.",
    "Bringing this to Dana on Saturday.",
    "Not wrapped up neatly, but that's okay.",
    "Day by day.",
    "More on this later.",
    "",
]


THEME_KEYWORDS = {
    "gratitude": ["gratitude", "thankful", "small wins"],
    "sleep": ["sleep", "insomnia", "evenings"],
    "friends": ["friendship", "social life", "saying no"],
    "family": ["family", "amends", "parents"],
    "work": ["work", "boundaries", "stress"],
    "money": ["money", "budget", "savings"],
    "body": ["health", "energy", "exercise"],
    "program": ["meetings", "sponsor", "steps"],
    "cravings": ["cravings", "urges", "coping"],
    "emotions": ["emotions", "feelings", "anger"],
    "identity": ["identity", "sober life"],
    "routines": ["routine", "habits", "cooking"],
    "nature": ["nature", "walking", "outdoors"],
    "halfyear": ["six months", "milestone"],
    "autumn": ["autumn", "seasons"],
    "summer": ["summer", "barbecues"],
    "thanksgiving": ["thanksgiving", "family", "holidays"],
    "december": ["holidays", "parties", "planning"],
    "progress": ["progress", "patience", "growth"],
}
SEASONAL_THEMES = ("halfyear", "autumn", "summer", "thanksgiving", "december")


def gen_reflections():
    for title, theme, fixed in REFLECTIONS:
        day = fixed or random_day()
        pool = REFLECTION_THEMES[theme]
        # mostly the theme's own sentences, sometimes one borrowed thought from a neighbouring theme
        sentences = pick(pool, min(len(pool), rng.randint(3, 5)))
        if rng.random() < 0.35:
            other = rng.choice(sorted(t for t in REFLECTION_THEMES
                                      if t != theme and t not in SEASONAL_THEMES))
            sentences.insert(rng.randrange(1, len(sentences) + 1), rng.choice(REFLECTION_THEMES[other]))
        closing = rng.choice(CLOSINGS)
        content = " ".join(sentences + ([closing] if closing else []))
        kws = pick(THEME_KEYWORDS[theme], rng.randint(1, len(THEME_KEYWORDS[theme]))) + (["reflection"] if rng.random() < 0.4 else [])
        extra = {}
        if rng.random() < 0.15:
            extra["rankingHint"] = rng.randint(50, 80)
        add(make_id("reflection", day), "reflection", title, content, cap_keywords(kws),
            at(day, rng.choice([21, 22]) if fixed else rng.choice([7, 8, 21, 22, 23])), protect=title in PROTECTED_REFLECTIONS, **extra)


# ---------------------------------------------------------------------------------------------
# recipes: (title, cuisine, minutes, serves, ingredients, steps, note, keywords, date or None)

RECIPES = [
    ("Yerba mate latte", "South American", 10, 1,
     ["2 tbsp loose yerba mate", "1 cup oat milk", "1 tsp honey", "pinch of cinnamon"],
     "Steep the yerba mate in half a cup of water at 80°C for five minutes, strain. Froth the hot "
     "oat milk, stir in honey and cinnamon, pour the mate over it.",
     "My 4pm replacement for the after-work beer: warm, a little bitter, a real lift.",
     ["yerba mate", "latte", "caffeine", "mocktail"], dt.date(2026, 9, 14)),
    ("Lentil soup", "Mediterranean", 45, 4,
     ["1 cup brown lentils", "1 onion", "2 carrots", "2 celery stalks", "3 garlic cloves",
      "1 tsp cumin", "400 g chopped tomatoes", "6 cups vegetable stock", "lemon"],
     "Soften onion, carrot and celery in olive oil, add garlic and cumin. Add rinsed lentils, "
     "tomatoes and stock, simmer 30 minutes. Blend half, finish with lemon juice.",
     "Freezes well; I make a double batch on Sundays.",
     ["lentils", "soup", "vegetarian", "meal prep"], dt.date(2026, 10, 4)),
    ("Red lentil dal", "Indian", 35, 4,
     ["1 cup red lentils", "1 onion", "thumb of ginger", "3 garlic cloves", "1 tsp turmeric",
      "1 tsp garam masala", "1 can coconut milk", "spinach", "rice to serve"],
     "Fry onion, ginger and garlic, add spices. Add lentils with three cups of water, simmer "
     "20 minutes until creamy, stir in coconut milk and spinach.",
     "Cheap, fast and comforting on a cold night.",
     ["lentils", "dal", "curry", "vegan"], None),
    ("French lentil salad with goat cheese", "French", 30, 3,
     ["1 cup green Puy lentils", "1 shallot", "Dijon mustard", "red wine vinegar", "goat cheese",
      "parsley", "walnuts"],
     "Simmer lentils 20 minutes so they keep their shape. Whisk mustard, vinegar and olive oil, "
     "toss with warm lentils and shallot, top with goat cheese, parsley and walnuts.",
     "Good packed lunch; keeps three days in the fridge.",
     ["lentils", "salad", "lunch"], None),
    ("Mujaddara", "Lebanese", 50, 4,
     ["1 cup brown lentils", "1 cup basmati rice", "3 large onions", "cumin", "allspice",
      "plain yogurt"],
     "Cook lentils until just tender. Slowly fry sliced onions until deep brown. Cook rice with "
     "the lentils and spices, fold in half the onions, pile the crispy rest on top, serve with yogurt.",
     "The onions take patience. That's kind of the point.",
     ["lentils", "rice", "onions"], None),
    ("Lentil bolognese", "Italian", 55, 4,
     ["1 cup brown lentils", "1 onion", "1 carrot", "tomato paste", "crushed tomatoes",
      "dried oregano", "spaghetti", "parmesan"],
     "Build a soffritto, add tomato paste, then lentils, tomatoes and water. Simmer 35 minutes "
     "until thick. Toss with spaghetti and parmesan.",
     "Sam didn't notice there was no meat.",
     ["lentils", "pasta", "vegetarian"], None),
    ("Ginger-lime spritz", "Mocktail", 5, 1,
     ["thumb of fresh ginger", "1 lime", "1 tsp maple syrup", "sparkling water", "ice", "mint"],
     "Muddle grated ginger with lime juice and maple syrup, strain over ice, top with sparkling "
     "water and a sprig of mint.",
     "Sharp enough to feel like a grown-up drink.",
     ["mocktail", "ginger", "alcohol-free"], None),
    ("Virgin mojito", "Cuban", 5, 1,
     ["10 mint leaves", "1 lime", "2 tsp sugar", "soda water", "crushed ice"],
     "Muddle mint, lime wedges and sugar, add crushed ice, top with soda water and stir.",
     "Summer barbecue go-to so I have something in my hand.",
     ["mocktail", "mint", "summer"], dt.date(2026, 7, 2)),
    ("Hibiscus iced tea", "Mexican", 15, 6,
     ["1/2 cup dried hibiscus flowers", "cinnamon stick", "1/3 cup sugar", "orange slices"],
     "Simmer hibiscus and cinnamon in two litres of water for ten minutes, stir in sugar, strain "
     "and chill. Serve over ice with orange.",
     "Agua de jamaica: tart, deep red, and it looks festive in a wine glass.",
     ["tea", "hibiscus", "iced"], dt.date(2026, 7, 18)),
    ("Cranberry rosemary spritzer", "Mocktail", 10, 2,
     ["1 cup cranberry juice", "2 rosemary sprigs", "1 tbsp honey", "sparkling water", "fresh cranberries"],
     "Warm cranberry juice with rosemary and honey, let it cool, pour over ice and top with "
     "sparkling water. Garnish with cranberries.",
     "Made a pitcher for Thanksgiving so I had a festive glass all evening.",
     ["mocktail", "cranberry", "thanksgiving"], dt.date(2026, 11, 22)),
    ("Spiced apple cider", "American", 25, 6,
     ["2 litres apple cider", "3 cinnamon sticks", "6 cloves", "2 star anise", "orange peel"],
     "Warm everything gently for twenty minutes without boiling. Ladle into mugs.",
     "Makes the whole apartment smell like autumn.",
     ["cider", "warm drink", "autumn"], dt.date(2026, 10, 28)),
    ("Golden milk", "Indian", 10, 1,
     ["1 cup almond milk", "1 tsp turmeric", "pinch of black pepper", "1/2 tsp ginger",
      "1 tsp honey"],
     "Whisk everything in a small pan until steaming. Drink slowly before bed.",
     "Part of my closing-the-day routine.",
     ["turmeric", "bedtime", "warm drink"], None),
    ("Cold brew tonic", "Mocktail", 5, 1,
     ["1/2 cup cold brew concentrate", "tonic water", "ice", "orange peel"],
     "Fill a glass with ice, add tonic, float the cold brew on top, twist orange peel over it.",
     "Bitter and bubbly, scratches the gin-and-tonic itch.",
     ["coffee", "tonic", "mocktail"], None),
    ("Sheet-pan chicken with lemon and potatoes", "Greek", 50, 4,
     ["8 chicken thighs", "1 kg baby potatoes", "2 lemons", "oregano", "garlic", "olive oil"],
     "Toss everything on one tray, roast at 220°C for 40 minutes, turning once.",
     "One pan, minimal dishes, dinner on autopilot.",
     ["chicken", "sheet pan", "weeknight"], None),
    ("Black bean tacos", "Mexican", 20, 3,
     ["2 cans black beans", "corn tortillas", "avocado", "red onion", "lime", "cotija", "chipotle"],
     "Warm beans with chipotle and cumin, mash a little. Char tortillas, fill with beans, "
     "avocado, pickled onion and cotija.",
     "Tuesday classic.",
     ["tacos", "beans", "vegetarian"], None),
    ("Miso-glazed salmon", "Japanese", 25, 2,
     ["2 salmon fillets", "2 tbsp white miso", "1 tbsp mirin", "1 tsp soy sauce", "sesame seeds",
      "rice", "bok choy"],
     "Brush salmon with miso, mirin and soy, broil eight minutes. Serve with rice and steamed bok choy.",
     "Note: mirin cooks off, but I use the alcohol-free kind anyway.",
     ["salmon", "miso", "fish"], None),
    ("Shakshuka", "Middle Eastern", 30, 2,
     ["1 onion", "1 red pepper", "2 garlic cloves", "can of tomatoes", "cumin", "paprika", "4 eggs",
      "feta", "crusty bread"],
     "Soften onion and pepper, add garlic and spices, then tomatoes; simmer ten minutes. Make "
     "wells, crack in eggs, cover until whites set. Crumble feta on top.",
     "Best weekend breakfast, especially on a clear-headed Sunday.",
     ["eggs", "breakfast", "brunch"], None),
    ("Overnight oats", "Breakfast", 5, 1,
     ["1/2 cup rolled oats", "1/2 cup milk", "1/4 cup yogurt", "chia seeds", "berries", "maple syrup"],
     "Stir everything in a jar, refrigerate overnight, top with berries in the morning.",
     "Five jars on Sunday night = breakfast sorted all week.",
     ["oats", "breakfast", "meal prep"], None),
    ("Banana oat pancakes", "American", 20, 2,
     ["2 ripe bananas", "1 cup oats", "2 eggs", "1 tsp baking powder", "cinnamon"],
     "Blend everything into a batter, rest five minutes, cook small pancakes on a buttered pan.",
     "No flour, no fuss.",
     ["pancakes", "breakfast", "banana"], None),
    ("Chickpea and spinach curry", "Indian", 30, 4,
     ["2 cans chickpeas", "1 onion", "garlic", "ginger", "curry paste", "can of tomatoes",
      "spinach", "coconut yogurt"],
     "Fry onion, garlic and ginger, add curry paste, then tomatoes and chickpeas. Simmer 15 minutes, "
     "wilt in spinach.",
     "Pantry dinner when the fridge is empty.",
     ["chickpeas", "curry", "vegan"], None),
    ("Tofu and vegetable stir-fry", "Chinese", 25, 2,
     ["1 block firm tofu", "broccoli", "snap peas", "red pepper", "soy sauce", "garlic", "ginger",
      "rice"],
     "Press and cube tofu, fry until golden. Stir-fry vegetables hot and fast, add sauce, return tofu.",
     "Uses up whatever is left in the crisper drawer.",
     ["tofu", "stir-fry", "quick"], None),
    ("Minestrone", "Italian", 50, 6,
     ["onion", "carrot", "celery", "zucchini", "cannellini beans", "small pasta", "tomatoes",
      "parmesan rind", "basil"],
     "Sweat the vegetables, add tomatoes, stock and parmesan rind, simmer 25 minutes. Add beans and "
     "pasta for the last ten.",
     "The parmesan rind is the secret.",
     ["soup", "beans", "italian"], None),
    ("Roasted butternut squash soup", "American", 60, 4,
     ["1 butternut squash", "1 onion", "2 garlic cloves", "sage", "vegetable stock", "cream"],
     "Roast cubed squash and onion at 200°C for 35 minutes. Blend with stock and garlic, finish "
     "with a splash of cream and crispy sage.",
     "First soup of autumn, every year.",
     ["squash", "soup", "autumn"], dt.date(2026, 10, 12)),
    ("Turkey chili", "Tex-Mex", 60, 6,
     ["500 g ground turkey", "2 cans kidney beans", "onion", "peppers", "chili powder", "cumin",
      "crushed tomatoes", "cornbread to serve"],
     "Brown the turkey, add onion and peppers, then spices, tomatoes and beans. Simmer 40 minutes.",
     "Football Sunday food without the beer.",
     ["chili", "turkey", "batch cooking"], None),
    ("Greek salad", "Greek", 10, 2,
     ["tomatoes", "cucumber", "red onion", "green pepper", "kalamata olives", "feta", "oregano"],
     "Chop everything chunky, top with a slab of feta, oregano and good olive oil.",
     "Summer lunch on the fire escape.",
     ["salad", "feta", "summer"], dt.date(2026, 6, 20)),
    ("Pad see ew", "Thai", 25, 2,
     ["wide rice noodles", "Chinese broccoli", "2 eggs", "dark soy sauce", "oyster sauce", "garlic"],
     "Sear noodles in a very hot pan, push aside, scramble eggs, add broccoli and sauces, toss.",
     "Cheaper than the takeout place and almost as good.",
     ["noodles", "thai", "takeout fakeout"], None),
    ("Mushroom risotto", "Italian", 45, 3,
     ["1 cup arborio rice", "300 g mixed mushrooms", "shallot", "vegetable stock", "parmesan",
      "thyme", "lemon"],
     "Sauté mushrooms and set aside. Toast rice with shallot, add hot stock a ladle at a time for "
     "20 minutes, fold in mushrooms, parmesan and lemon zest.",
     "Old recipe said to deglaze with white wine; a squeeze of lemon and extra stock works just as well.",
     ["risotto", "mushrooms", "alcohol-free swap"], None),
    ("Baked ziti", "Italian-American", 60, 6,
     ["500 g ziti", "marinara", "ricotta", "mozzarella", "parmesan", "basil"],
     "Undercook pasta, mix with marinara and ricotta, layer with mozzarella, bake 25 minutes at 190°C.",
     "Brought this to the meeting potluck; came home with an empty dish.",
     ["pasta", "potluck", "baked"], None),
    ("Pumpkin bread", "American", 75, 8,
     ["1 can pumpkin puree", "2 cups flour", "1 cup sugar", "2 eggs", "pumpkin pie spice",
      "baking soda", "walnuts"],
     "Whisk wet ingredients, fold in dry, pour into a loaf pan and bake 60 minutes at 175°C.",
     "The sugar cravings in early sobriety are real, so at least it's homemade.",
     ["baking", "pumpkin", "autumn"], dt.date(2026, 10, 3)),
    ("Pesto pasta with peas", "Italian", 20, 2,
     ["250 g orecchiette", "basil pesto", "1 cup frozen peas", "lemon", "parmesan"],
     "Add peas to the pasta water for the last two minutes, drain, toss with pesto, lemon and parmesan.",
     "Fifteen-minute dinner for the nights I'm too tired to think.",
     ["pasta", "pesto", "quick"], None),
    ("Chicken tortilla soup", "Mexican", 40, 4,
     ["2 chicken breasts", "onion", "jalapeño", "cumin", "crushed tomatoes", "chicken stock",
      "tortilla chips", "avocado", "lime"],
     "Poach chicken in stock with onion, jalapeño and spices, shred. Add tomatoes, simmer, serve "
     "over crushed chips with avocado and lime.",
     "Sick-day soup.",
     ["soup", "chicken", "mexican"], None),
    ("Roasted vegetable grain bowl", "Californian", 40, 2,
     ["farro", "sweet potato", "brussels sprouts", "chickpeas", "tahini", "lemon", "pomegranate seeds"],
     "Roast vegetables and chickpeas at 210°C for 30 minutes. Serve over farro with lemon tahini "
     "dressing and pomegranate.",
     "Looks fancy, is mostly oven time.",
     ["grain bowl", "tahini", "vegetarian"], None),
    ("Egg fried rice", "Chinese", 15, 2,
     ["2 cups day-old rice", "3 eggs", "scallions", "frozen peas", "soy sauce", "sesame oil"],
     "Scramble eggs, set aside. Fry rice hard in a hot pan, add peas, soy and sesame oil, fold eggs "
     "back in, top with scallions.",
     "Best use of leftover rice.",
     ["rice", "eggs", "leftovers"], None),
    ("Thai green curry", "Thai", 35, 4,
     ["green curry paste", "1 can coconut milk", "chicken or tofu", "bamboo shoots", "Thai basil",
      "fish sauce", "lime leaves", "jasmine rice"],
     "Fry curry paste in a little coconut cream until fragrant, add the rest of the coconut milk, "
     "protein and bamboo shoots; simmer 15 minutes and finish with basil.",
     "Spicy enough to make me forget I wanted anything else.",
     ["curry", "thai", "coconut"], None),
    ("Apple crumble", "British", 55, 6,
     ["5 apples", "cinnamon", "1 cup flour", "1/2 cup oats", "1/2 cup brown sugar", "butter"],
     "Slice apples into a dish with cinnamon. Rub flour, oats, sugar and butter into crumbs, "
     "scatter over, bake 40 minutes at 180°C.",
     "Made it with apples from the farmers market.",
     ["dessert", "apples", "baking"], dt.date(2026, 10, 25)),
    ("Peanut noodles", "Asian fusion", 15, 2,
     ["soba noodles", "peanut butter", "soy sauce", "rice vinegar", "chili crisp", "cucumber",
      "scallions"],
     "Whisk peanut butter, soy, vinegar and chili crisp with hot water; toss with cooked noodles, "
     "cucumber and scallions. Good cold.",
     "Packed lunch that makes coworkers jealous.",
     ["noodles", "peanut", "lunch"], None),
    ("Kale caesar with crispy chickpeas", "American", 25, 2,
     ["lacinato kale", "1 can chickpeas", "parmesan", "lemon", "Dijon", "garlic", "anchovy"],
     "Roast chickpeas until crunchy. Massage kale with dressing, top with chickpeas and parmesan.",
     "Massaging kale sounds silly and completely works.",
     ["salad", "kale", "chickpeas"], None),
    ("Sweet potato hash with eggs", "American", 30, 2,
     ["2 sweet potatoes", "1 red onion", "bell pepper", "smoked paprika", "4 eggs", "hot sauce"],
     "Crisp diced sweet potato in a cast iron pan, add onion and pepper, make wells and cook the eggs.",
     "Weekend brunch at home, no bottomless mimosas required.",
     ["brunch", "sweet potato", "eggs"], None),
    ("Homemade cranberry sauce", "American", 15, 8,
     ["340 g fresh cranberries", "1 cup orange juice", "1/2 cup sugar", "orange zest"],
     "Simmer cranberries with juice and sugar until they pop, about ten minutes. Stir in zest, cool.",
     "Thanksgiving job Mom gave me this year.",
     ["thanksgiving", "cranberry", "side dish"], dt.date(2026, 11, 25)),
    ("Herb-roasted turkey breast", "American", 100, 6,
     ["1 bone-in turkey breast", "butter", "sage", "thyme", "rosemary", "garlic", "lemon"],
     "Rub herb butter under the skin, roast at 180°C until 70°C inside, about 90 minutes. Rest "
     "20 minutes before carving.",
     "Smaller Thanksgiving, smaller bird.",
     ["thanksgiving", "turkey", "roast"], dt.date(2026, 11, 23)),
    ("Matcha banana smoothie", "Japanese-inspired", 5, 1,
     ["1 tsp matcha", "1 frozen banana", "1 cup oat milk", "handful of spinach", "1 tsp honey"],
     "Blend until smooth.",
     "Morning caffeine without the coffee jitters.",
     ["matcha", "smoothie", "breakfast"], None),
    ("Mint and cucumber agua fresca", "Mexican", 10, 4,
     ["2 cucumbers", "handful of mint", "2 limes", "2 tbsp agave", "cold water"],
     "Blend cucumber, mint, lime juice and agave with water, strain, serve very cold.",
     "Heatwave essential.",
     ["agua fresca", "cucumber", "summer"], dt.date(2026, 8, 12)),
    ("Chai concentrate", "Indian", 30, 8,
     ["black tea", "cinnamon sticks", "cardamom pods", "cloves", "fresh ginger", "black peppercorns",
      "brown sugar"],
     "Simmer spices and ginger in four cups of water for 20 minutes, steep the tea five minutes, "
     "strain, sweeten. Mix half and half with hot milk.",
     "A jar in the fridge means a treat is always two minutes away.",
     ["chai", "tea", "warm drink"], None),
    ("Slow-cooker beef stew", "Irish", 480, 6,
     ["1 kg stewing beef", "potatoes", "carrots", "onion", "tomato paste", "beef stock", "thyme",
      "bay leaves"],
     "Brown the beef, then everything into the slow cooker on low for eight hours.",
     "Grandpa made it with stout. Mine uses extra stock and a spoon of molasses, and I like it better.",
     ["stew", "beef", "slow cooker"], None),
]
PROTECTED_RECIPES = {"Yerba mate latte", "Lentil soup", "Red lentil dal", "French lentil salad with goat cheese",
                     "Mujaddara", "Lentil bolognese", "Golden milk", "Spiced apple cider", "Chai concentrate"}


def gen_recipes():
    for title, cuisine, minutes, serves, ingredients, steps, note, kws, fixed in RECIPES:
        day = fixed or random_day()
        content = (f"{cuisine} · {minutes} min · serves {serves}. "
                   f"Ingredients: {', '.join(ingredients)}. Steps: {steps} {note}")
        extra = {}
        if title == "Yerba mate latte":
            extra["rankingHint"] = 80
        elif rng.random() < 0.2:
            extra["rankingHint"] = rng.randint(30, 75)
        item_id = f"recipe-{slug(title)}"
        add(item_id, "recipe", title, content, cap_keywords(kws, allow_empty=title not in PROTECTED_RECIPES),
            at(day, rng.choice([11, 12, 17, 18, 19])), protect=title in PROTECTED_RECIPES, **extra)


# ---------------------------------------------------------------------------------------------
# expenses

GROCERY_STORES = ["Trader Joe's", "Safeway", "Whole Foods", "Rainbow Grocery", "Costco",
                  "Berkeley Bowl", "the Ferry Building farmers market"]
GROCERY_ITEMS = ["spinach", "oats", "eggs", "tofu", "bananas", "frozen dumplings", "sparkling water",
                 "red lentils", "Greek yogurt", "chicken thighs", "jasmine rice", "coffee beans",
                 "tortillas", "avocados", "apples", "peanut butter", "pasta", "tomatoes", "kale",
                 "sweet potatoes", "yerba mate", "salmon", "onions", "garlic", "sourdough", "berries",
                 "oat milk", "chickpeas", "cheddar", "hummus"]
COFFEE_SHOPS = ["Ritual Coffee", "Blue Bottle", "Sightglass", "Starbucks", "Corner Grounds café",
                "Philz"]
COFFEE_ORDERS = ["oat latte", "cortado", "drip coffee and a croissant", "iced americano",
                 "yerba mate latte", "cappuccino and a scone", "two cold brews for me and Dana",
                 "mint mojito iced coffee"]
# (title, merchant, (min, max) amount, content variants, keywords, most uses over the period)
TRANSPORT = [
    ("Clipper card top-up", "Clipper", (20, 50),
     ["Topped up the Clipper card for BART and Muni.",
      "Reloaded Clipper at the Civic Center station, card was at zero.",
      "Auto-reload on the Clipper card kicked in."],
     ["clipper", "bart", "muni"], 8),
    ("Lyft home", "Lyft", (11, 34),
     ["Lyft home instead of waiting forty minutes for the late bus.",
      "Took a Lyft home from the meeting in the rain.",
      "Lyft back from Jess's place; left before the party got loud."],
     ["lyft", "ride"], 6),
    ("Uber to the airport", "Uber", (38, 62),
     ["Uber to SFO for the early flight to Portland.",
      "Uber to SFO to pick up Alex."],
     ["uber", "airport"], 2),
    ("Gas", "Shell", (38, 68),
     ["Filled up the tank at the Shell on Cesar Chavez.",
      "Gas before the drive up to Point Reyes.",
      "Half a tank at Shell; prices are up again."],
     ["gas", "car"], 5),
    ("Parking downtown", "SFMTA", (6, 24),
     ["Parking meter near the office; the meeting ran long.",
      "Garage parking for the dentist appointment downtown.",
      "Street parking ticket-free for once, just the meter."],
     ["parking", "car"], 4),
    ("Bike tune-up", "Valencia Cyclery", (45, 90),
     ["New brake pads and a chain clean at Valencia Cyclery."],
     ["bike", "repair"], 1),
    ("Caltrain ticket", "Caltrain", (7, 15),
     ["Caltrain down to Palo Alto for the client visit.",
      "Round trip on Caltrain to see Alex in San Jose."],
     ["caltrain", "train"], 3),
]
DINING = [
    ("Lunch at Tartine", "Tartine", (18, 32),
     ["Lunch with Dana at Tartine; I had the soup and a sparkling lemonade.",
      "Morning bun and a sandwich at Tartine, eaten in Dolores Park."],
     ["lunch", "bakery"], 3),
    ("Thai takeout", "Kin Khao", (24, 45),
     ["Thai takeout from Kin Khao: green curry and pad see ew.",
      "Ordered Kin Khao for the couch on a rough evening; better than the old alternative."],
     ["takeout", "thai"], 3),
    ("Pho with Sam", "Turtle Tower", (26, 40),
     ["Pho with Sam after the movie.", "Two bowls of pho at Turtle Tower on a foggy night."],
     ["pho", "vietnamese"], 2),
    ("Burritos after the meeting", "La Taqueria", (12, 25),
     ["Burritos with the Tuesday group after the meeting.",
      "Carnitas burrito and an horchata at La Taqueria."],
     ["burrito", "mexican"], 3),
    ("Sushi dinner", "Sushi Ran", (48, 95),
     ["Sushi dinner out with Sam; ordered yuzu soda while the others did the sake flight."],
     ["sushi", "date night"], 1),
    ("Pizza night", "Delfina Pizzeria", (28, 44),
     ["Pizza night with Jess and Theo, split two pies.",
      "Picked up a margherita from Delfina for movie night."],
     ["pizza"], 2),
    ("Bagels for the office", "Wise Sons", (22, 38),
     ["Bought bagels for the team's Friday breakfast."],
     ["bagels", "office"], 1),
    ("Ramen on a rainy night", "Marufuku", (19, 30),
     ["Ramen alone at the counter on a rainy night; felt good, actually."],
     ["ramen", "japanese"], 1),
]
HOUSEHOLD = [
    ("Household supplies", "Target", (25, 80),
     ["Paper towels, dish soap, laundry detergent and a new shower curtain at Target.",
      "Target run: sponges, trash bags, a lamp for the bedroom."],
     ["target", "supplies"], 3),
    ("Hardware store run", "Cole Hardware", (12, 48),
     ["Picture hooks, a lightbulb and WD-40 for the squeaky door.",
      "Weatherstripping for the drafty window before winter."],
     ["hardware", "repairs"], 2),
    ("Laundromat", "Wash Club", (8, 16),
     ["Two loads at the laundromat while the building washer is broken."],
     ["laundry"], 1),
    ("Houseplants", "Flora Grubb", (22, 60),
     ["A pothos and a snake plant for the living room."],
     ["plants"], 1),
]
HOBBIES = [
    ("Books", "Green Apple Books", (14, 45),
     ["Two used paperbacks and a cookbook at Green Apple Books.",
      "A memoir Dana recommended, plus a notebook for journaling."],
     ["books", "reading"], 3),
    ("Pottery class", "Clay by the Bay", (35, 55),
     ["Drop-in pottery class, clay and firing included.",
      "Pottery class fee; glazing week."],
     ["pottery", "class"], 3),
    ("Guitar strings", "Guitar Center", (9, 18),
     ["New strings for the old acoustic."],
     ["guitar", "music"], 1),
    ("Climbing shoes", "REI", (95, 150),
     ["Finally bought my own climbing shoes instead of renting."],
     ["climbing", "gear"], 1),
    ("Movie tickets", "Alamo Drafthouse", (24, 36),
     ["Two tickets for the Sunday matinee with Sam.",
      "Late showing with Jess; we split a huge popcorn."],
     ["movies", "tickets"], 2),
]
HEALTH = [
    ("Pharmacy", "CVS", (8, 35),
     ["Prescription refill and vitamins at CVS.",
      "Allergy meds and sunscreen at CVS."],
     ["pharmacy", "prescription"], 3),
    ("Dentist copay", "Mission Dental", (40, 60),
     ["Cleaning copay at the dentist."],
     ["dentist", "copay"], 1),
    ("Massage", "Kabuki Springs", (70, 110),
     ["Massage for my back, worth every cent."],
     ["massage", "back pain"], 1),
]
USES = {}
USED_TEXTS = set()

RECURRING = [
    # (day of month, title prefix, merchant, amount, category, content template, keywords)
    (1, "Rent", "Maple Street Properties", 1850.00, "rent",
     "Rent for {month} paid to Maple Street Properties, {amount} by bank transfer.", ["rent", "housing"]),
    (5, "Climbing gym membership", "Mission Cliffs", 95.00, "gym",
     "Monthly membership at Mission Cliffs climbing gym, {amount}.", ["gym", "climbing", "membership"]),
    (12, "Phone bill", "Mint Mobile", 30.00, "utilities",
     "Mint Mobile phone plan for {month}, {amount}.", ["phone", "bill"]),
    (20, "Internet", "Sonic", 50.00, "utilities",
     "Sonic fiber internet for {month}, {amount}.", ["internet", "bill"]),
    (15, "Spotify Premium", "Spotify", 11.99, "subscriptions",
     "Spotify Premium subscription, {amount} for {month}.", ["subscription", "music"]),
]


def amount(lo, hi):
    return round(rng.uniform(lo, hi), 2)


def expense(day, category, title_head, merchant, value, content, kws, hour=None, protect=False, **extra):
    title = f"{title_head} — {money(value)}"
    while title in TITLES:  # keep titles distinct: nudge the cents
        value = round(value + 0.01, 2)
        title = f"{title_head} — {money(value)}"
    content = content.replace("{amount}", money(value))
    if hour is None:
        hour = rng.choice([8, 9, 12, 13, 17, 18, 19])
    add(make_id("expense", day), "expense", title, content,
        cap_keywords(kws + [category], allow_empty=not protect),
        at(day, hour), protect=protect, **extra)


def grocery(day, store=None, protect=False, big=False, hour=None):
    store = store or rng.choice(GROCERY_STORES)
    value = amount(95, 185) if big or store == "Costco" else amount(18, 92)
    items = ", ".join(pick(GROCERY_ITEMS, rng.randint(3, 5)))
    store_title = store.replace("the Ferry Building farmers market", "Ferry Building farmers market")
    form = rng.randrange(4)
    if form == 0:
        content = f"Spent {{amount}} at {store} on groceries for the week: {items}."
    elif form == 1:
        content = f"Weekly shop at {store}: {items}. {{amount}} total."
    elif form == 2:
        content = f"Quick {store} run for {items}. Came to {{amount}}."
    else:
        content = f"Stocked the fridge at {store}, {items}, {{amount}}. Meal prep for the week sorted."
    head = rng.choice(["Groceries at", "Weekly shop at", "Grocery run at"]) + f" {store_title}"
    expense(day, "groceries", head, store, value, content,
            ["groceries", slug(store_title).split("-")[0]], hour=hour, protect=protect)


def coffee(day, shop=None, protect=False, hour=None):
    for _ in range(20):  # avoid repeating the exact same order, shop and wording
        s_ = shop or rng.choice(COFFEE_SHOPS)
        order = rng.choice(COFFEE_ORDERS)
        form = rng.randrange(3)
        if (s_, order, form) not in USED_TEXTS:
            break
    shop = s_
    USED_TEXTS.add((shop, order, form))
    value = amount(4.25, 9.5) if "two" not in order else amount(9, 14)
    content = [
        f"{order[0].upper() + order[1:]} at {shop}, {{amount}}.",
        f"Stopped at {shop} on the way in: {order}. {{amount}}.",
        f"{shop}: {order}. {{amount}}, worth it.",
    ][form]
    expense(day, "coffee", f"Coffee at {shop}", shop, value, content, ["coffee", "cafe"],
            hour=hour if hour is not None else rng.choice([7, 8, 9, 10, 15]), protect=protect)


def from_table(day, table, category, protect=False, hour=None, extra_kws=()):
    """One item from `table`, honouring each entry's most-uses limit; returns False if all are used up."""
    open_entries = [e for e in table if USES.get(e[0], 0) < e[5]]
    if not open_entries:
        return False
    head, merchant, (lo, hi), texts, kws, _ = rng.choice(open_entries)
    USES[head] = USES.get(head, 0) + 1
    fresh = [t for t in texts if t not in USED_TEXTS] or texts
    text = rng.choice(fresh)
    USED_TEXTS.add(text)
    expense(day, category, head, merchant, amount(lo, hi), text + " {amount}.",
            kws + list(extra_kws), hour=hour, protect=protect)
    return True


def gen_expenses():
    # recurring bills
    for day in days():
        for dom, head, merchant, value, category, text, kws in RECURRING:
            if day.day == dom:
                month = day.strftime("%B")
                expense(day, category, f"{head}, {month}", merchant, value,
                        text.replace("{month}", month), kws, hour=9,
                        protect=day >= dt.date(2026, 11, 16))

    # hand-placed items around the demo's "last week" (ISO week 2026-W48: Mon 23 to Sun 29 Nov)
    d = dt.date
    grocery(d(2026, 11, 17), "Trader Joe's", protect=True)
    coffee(d(2026, 11, 18), "Ritual Coffee", protect=True)
    expense(d(2026, 11, 21), "transport", "Lyft home from the party", "Lyft", 23.40,
            "Lyft home at 10pm so I could leave the party early. {amount}.", ["lyft", "ride"], hour=22,
            protect=True)

    grocery(d(2026, 11, 23), "Trader Joe's", protect=True, hour=18)
    coffee(d(2026, 11, 23), "Blue Bottle", protect=True, hour=8)
    expense(d(2026, 11, 24), "transport", "Clipper card top-up", "Clipper", 40.00,
            "Topped up the Clipper card for BART and Muni. {amount}.", ["clipper", "bart"], protect=True)
    expense(d(2026, 11, 24), "health", "Therapy copay, Nov 24", "Dr. Alvarez", 40.00,
            "Copay for Tuesday's therapy session with Dr. Alvarez. {amount}.", ["therapy", "copay"],
            hour=16, private=True)
    expense(d(2026, 11, 25), "groceries", "Thanksgiving groceries at Whole Foods", "Whole Foods", 164.37,
            "Thanksgiving shop at Whole Foods: turkey breast, cranberries, sweet potatoes, green beans, "
            "sparkling cider, two pies. Spent {amount}.", ["groceries", "thanksgiving", "whole foods"],
            hour=17, protect=True)
    expense(d(2026, 11, 25), "transport", "Gas for the drive to Mom and Dad's", "Shell", 58.12,
            "Filled the tank at Shell before driving to Sacramento for Thanksgiving. {amount}.",
            ["gas", "thanksgiving"], hour=19, protect=True)
    expense(d(2026, 11, 26), "gifts", "Flowers for Mom", "Bloom Floral", 36.00,
            "Bought Mom a bunch of ranunculus for the Thanksgiving table. {amount}.",
            ["flowers", "gift", "thanksgiving"], hour=11, protect=True)
    expense(d(2026, 11, 27), "shopping", "Black Friday at REI", "REI", 128.95,
            "Black Friday: rain shell and wool socks at REI, 25% off. {amount}.", ["rei", "black friday"],
            hour=15, protect=True)
    coffee(d(2026, 11, 28), "Sightglass", protect=True, hour=10)
    expense(d(2026, 11, 28), "dining", "Thai takeout after Thanksgiving", "Kin Khao", 41.80,
            "Thai takeout from Kin Khao because nobody wanted more turkey. {amount}.",
            ["takeout", "thai"], hour=19, protect=True)
    expense(d(2026, 11, 29), "gym", "Yoga class pack", "Yoga Tree", 120.00,
            "Ten-class pack at Yoga Tree for the winter. {amount}.", ["yoga", "classes"], hour=12,
            protect=True)

    coffee(d(2026, 11, 30), "Philz", protect=True, hour=8)
    grocery(d(2026, 12, 1), "Safeway", protect=True, hour=18)
    coffee(d(2026, 12, 2), "Corner Grounds café", protect=True, hour=8)
    expense(d(2026, 12, 2), "transport", "Muni fare", "SFMTA", 2.75,
            "Single Muni fare, forgot my Clipper card at home. {amount}.", ["muni", "fare"], hour=9,
            protect=True)

    # day-to-day spending for the rest of the period (skipping the hand-placed stretch)
    hand_placed = (d(2026, 11, 16), d(2026, 12, 2))
    week_has_grocery = set()
    for day in days():
        if hand_placed[0] <= day <= hand_placed[1]:
            continue
        week = day.isocalendar()[:2]
        if week not in week_has_grocery and (day.weekday() >= 5 or rng.random() < 0.25):
            week_has_grocery.add(week)
            grocery(day)
            if rng.random() < 0.15:
                grocery(day, "Costco")
        r = rng.random()
        if r < 0.11:
            coffee(day)
        elif r < 0.20:
            from_table(day, TRANSPORT, "transport")
        elif r < 0.26:
            from_table(day, DINING, "dining", extra_kws=["eating out"])
        elif r < 0.29:
            from_table(day, HOUSEHOLD, "household")
        elif r < 0.32:
            from_table(day, HOBBIES, "hobbies")
        elif r < 0.34:
            from_table(day, HEALTH, "health")
        if day.weekday() == 1 and rng.random() < 0.2:  # therapy on Tuesdays: always private
            expense(day, "health", f"Therapy copay, {day:%b} {day.day}", "Dr. Alvarez", 40.00,
                    "Copay for Tuesday's therapy session with Dr. Alvarez. {amount}.",
                    ["therapy", "copay"], hour=16, private=True)

    # refunds / pending charges that expire
    expense(d(2026, 9, 3), "shopping", "Pending refund for returned boots", "REI", 89.50,
            "Returned the hiking boots; refund pending, should clear within two weeks. {amount}.",
            ["refund", "pending"], hour=14, expires=iso(d(2026, 9, 17)))
    expense(d(2026, 10, 20), "travel", "Hotel hold for the Portland trip", "Hotel Zags", 150.00,
            "Card hold for the Portland work trip, released at checkout. {amount}.",
            ["hotel", "hold", "travel"], hour=10, expires=iso(d(2026, 10, 24)))
    expense(d(2026, 11, 30), "travel", "Flight deposit for Christmas", "Alaska Airlines", 198.40,
            "Held fare for flying home at Christmas; must confirm by the 14th. {amount}.",
            ["flight", "christmas", "hold"], hour=20, protect=True, expires=iso(d(2026, 12, 14)))


# ---------------------------------------------------------------------------------------------
# privacy and expiry flags


def apply_flags():
    """~5% private, ~3% hidden, ~3% already expired; protected demo items are left alone.

    Private goes to journal content (streak days, triggers, reflections) and health spending,
    as a user would mark it; hidden (archived in the app) can be anything; the extra expiries go
    to one-off event triggers, which stop mattering once the event is over."""
    n = len(ITEMS)
    free = [it for it in ITEMS if not it["_protect"] and not it.get("private") and "expires" not in it]
    for it in rng.sample(free, round(n * 0.03)):
        it["hidden"] = True
    free = [it for it in free if not it.get("hidden")]
    journal = [it for it in free if it["domain"] in ("streakDay", "trigger", "reflection")
               or it["title"].startswith(("Pharmacy", "Massage", "Dentist"))]
    missing = round(n * 0.05) - sum(1 for it in ITEMS if it.get("private"))
    for it in rng.sample(journal, max(0, missing)):
        it["private"] = True
    events = [it for it in free if not it.get("private") and it["title"] in EVENT_TRIGGERS]
    missing = round(n * 0.03) - sum(1 for it in ITEMS if it.get("expires", "9") < iso_now())
    for it in rng.sample(events, max(0, missing)):
        when = dt.datetime.strptime(it["date"], "%Y-%m-%dT%H:%M:%SZ").date()
        it["expires"] = iso(min(when + dt.timedelta(days=rng.randint(1, 3)), LAST_DAY - dt.timedelta(days=1)))


EVENT_TRIGGERS = {"Team drinks after the product launch", "Celebrating Priya's promotion",
                  "Friend's birthday at a rooftop bar", "Networking event downtown",
                  "Airport layover with nothing to do", "Hotel minibar on a work trip",
                  "Watching the game at a friend's place", "Meeting Sam's friends for the first time",
                  "Dinner date at a wine bar", "Client deliverable moved up two days"}


def apply_display_names():
    """A few friendly display names, as the app shows them."""
    for it in ITEMS:
        if it["title"] in DISPLAY_NAMES and not it.get("hidden") and not it.get("private"):
            it["displayName"] = DISPLAY_NAMES[it["title"]]


DISPLAY_NAMES = {
    "Lentil soup": "Mom's lentil soup",
    "Slow-cooker beef stew": "Grandpa's stew (no stout)",
    "Ginger-lime spritz": "🍹 Ginger-lime spritz",
    "Overnight oats": "Overnight oats, five jars",
    "Pumpkin bread": "🎃 Pumpkin bread",
    "Cravings come in waves": "🌊 Cravings come in waves",
}


def iso_now():
    return NOW.strftime("%Y-%m-%dT%H:%M:%SZ")


# ---------------------------------------------------------------------------------------------


FIELD_ORDER = ["id", "domain", "title", "content", "keywords", "date", "expires", "url",
               "rankingHint", "private", "hidden", "displayName"]


def build():
    gen_streak_days()
    gen_triggers()
    gen_reflections()
    gen_recipes()
    gen_expenses()
    apply_flags()
    apply_display_names()
    ids = [it["id"] for it in ITEMS]
    assert len(ids) == len(set(ids)), "duplicate ids"
    out = []
    for it in sorted(ITEMS, key=lambda x: (x["date"], x["id"])):
        obj = {k: it[k] for k in FIELD_ORDER if k in it}
        out.append(json.dumps(obj, ensure_ascii=False))
    return "\n".join(out) + "\n"


def verify(text):
    """The properties the demo relies on; returns a short summary or raises AssertionError."""
    items = [json.loads(line) for line in text.splitlines()]
    now = iso_now()
    domains = {}
    for it in items:
        assert it["id"] and it["domain"] in URL_SECTION, it
        assert "2026-06-01T00:00:00Z" <= it["date"] <= now, it["id"]
        assert 0 <= len(it["keywords"]) <= 5, it["id"]
        assert 0 <= it.get("rankingHint", 0) <= 100, it["id"]
        domains[it["domain"]] = domains.get(it["domain"], 0) + 1
    assert len({it["id"] for it in items}) == len(items), "ids must be unique"
    assert len({it["title"] for it in items}) == len(items), "titles must be distinct"
    assert 300 <= len(items) <= 450 and len(text.encode()) < 300_000

    def visible(it):
        return not it.get("private") and not it.get("hidden") and it.get("expires", "9") >= now

    def in_range(it, lo, hi):
        return lo <= it["date"][:10] <= hi

    last_week = [it for it in items if in_range(it, "2026-11-23", "2026-11-29")]
    assert sum(1 for it in last_week if it["domain"] == "expense" and visible(it)) >= 8
    assert {it["domain"] for it in last_week} >= set(URL_SECTION)
    for lo, hi in (("2026-11-16", "2026-11-22"), ("2026-11-30", "2026-12-02")):
        assert any(it["domain"] == "expense" and visible(it) and in_range(it, lo, hi) for it in items)
    assert any(in_range(it, "2026-12-02", "2026-12-02") for it in items)
    assert any(in_range(it, "2026-12-01", "2026-12-01") for it in items)
    assert any(it["title"] == "Yerba mate latte" and it["domain"] == "recipe" and visible(it) for it in items)
    private = sum(1 for it in items if it.get("private"))
    hidden = sum(1 for it in items if it.get("hidden"))
    expired = sum(1 for it in items if it.get("expires", "9") < now)
    assert 0.04 <= private / len(items) <= 0.06 and 0.02 <= hidden / len(items) <= 0.04
    assert 0.02 <= expired / len(items) <= 0.04
    # "spending on food" must find groceries by meaning, not by a shared word
    for it in items:
        if it["domain"] == "expense" and "groceries" in it["keywords"]:
            words = set(slug(it["title"] + " " + it["content"]).split("-"))
            assert not words & {"food", "spending", "spend"}, it["id"]
    # "tense call with my boss" must find the manager meeting by meaning
    meeting = next(it for it in items if it["title"] == "Stressful meeting with my manager")
    assert not set(slug(meeting["content"] + " " + " ".join(meeting["keywords"])).split("-")) & {"tense", "call", "boss"}
    return (f"{len(items)} items ({', '.join(f'{k} {v}' for k, v in sorted(domains.items()))}); "
            f"private {private}, hidden {hidden}, expired {expired}")


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=os.path.join(here, "sample.jsonl"))
    ap.add_argument("--check", action="store_true", help="fail if --out differs from a fresh build")
    args = ap.parse_args()
    text = build()
    summary = verify(text)
    if args.check:
        with open(args.out, encoding="utf-8") as f:
            if f.read() != text:
                print(f"{args.out} is stale; rerun {sys.argv[0]}", file=sys.stderr)
                return 1
        return 0
    with open(args.out, "w", encoding="utf-8", newline="\n") as f:
        f.write(text)
    print(f"wrote {args.out}: {summary}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
