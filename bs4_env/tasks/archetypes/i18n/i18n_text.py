"""A named field of one language version of a multilingual product card.

Skill: selecting the block by its ``lang`` attribute (not the ``<html lang>`` that may carry
the same code), reading RTL (Arabic/Hebrew) and CJK text, and relying on BeautifulSoup to
decode named/numeric entities (``&eacute;``, ``&#x4E2D;``, ``&nbsp;``); the text may be
written in decomposed (NFD) form, so the comparison is NFC-normalized.
Shortcuts resisted: every language block has the same fields (same classes), blocks and
fields are shuffled, a language switcher repeats the language names, and texts are random
word combinations with an inline Latin model name, so nothing can be guessed from the query.
"""

from __future__ import annotations

import unicodedata
from html import escape
from html.entities import codepoint2name
from random import Random

from bs4_env.tasks.html import pools
from bs4_env.tasks.html.chrome import wrap_page
from bs4_env.tasks.model import ArchetypeSpec, Category, Difficulty, Generated

_CJK = ("zh", "ja")
_RTL = ("ar", "he")
# (code, English name, native name, space-separated words)
_LANGS: tuple[tuple[str, str, str, str], ...] = (
    ("ar", "Arabic", "العربية", (
        "سريع خفيف متين جديد ذكي هادئ أنيق عملي مريح قوي صغير حديث لاسلكي مقاوم للماء بطارية "
        "تصميم جودة منتج شحن مجاني ضمان لون أسود أبيض أزرق فضي مثالي للسفر المنزل المكتب يومي"
    )),
    ("he", "Hebrew", "עברית", (
        "מהיר קל עמיד חדש חכם שקט אלגנטי נוח חזק קטן גדול מודרני אלחוטי סוללה עיצוב איכות מחיר "
        "מוצר משלוח חינם אחריות שנתיים צבע שחור לבן כחול כסוף מושלם לטיולים לבית למשרד יומיומי"
    )),
    ("zh", "Chinese", "中文", (
        "轻便 耐用 新款 智能 静音 时尚 实用 舒适 强大 小巧 现代 无线 防水 电池 设计 品质 价格 "
        "产品 免费 送货 保修 两年 颜色 黑色 白色 蓝色 银色 完美 旅行 家用 办公 日常"
    )),
    ("ja", "Japanese", "日本語", (
        "軽量 丈夫 新しい スマート 静か おしゃれ 便利 快適 パワフル コンパクト モダン ワイヤレス "
        "防水 バッテリー デザイン 品質 価格 製品 無料 配送 保証 カラー ブラック ホワイト ブルー "
        "シルバー 旅行 家庭用 オフィス 毎日 ガジェット"
    )),
    ("fr", "French", "Français", (
        "léger durable élégant pratique étanche batterie qualité garantie livraison gratuite "
        "idéal bureau maison voyage très rapide silencieux modèle noir argenté conçu écran "
        "fenêtre pour été hôtel façade naïf crème fiabilité"
    )),
    ("de", "German", "Deutsch", (
        "leicht robust schön praktisch kabellos wasserdicht Akku Qualität Garantie Lieferung "
        "kostenlos ideal Büro Zuhause Reise sehr schnell leise Größe weiß grün überall Straße "
        "für täglich Gehäuse Außenbereich Öko Geräusch"
    )),
    ("es", "Spanish", "Español", (
        "ligero resistente elegante práctico inalámbrico batería calidad garantía envío gratis "
        "ideal oficina hogar viaje rápido silencioso diseño pequeño niño año más también cámara "
        "música aquí señal"
    )),
)  # fmt: skip
_FIELDS = (
    ("title", "title", "h2"),
    ("short description", "summary", "p"),
    ("tagline", "tagline", "p"),
    ("care note", "care", "small"),
)


def _encode(rng: Random, text: str, style: int) -> str:
    """HTML for ``text``: raw, entity-encoded or decomposed, the way CMS exports vary."""
    out = []
    for ch in text:
        if ch == " ":
            out.append("&nbsp;" if rng.random() < 0.15 else " ")
        elif ord(ch) < 128:
            out.append(escape(ch))
        elif style == 1 and ord(ch) in codepoint2name:
            out.append(f"&{codepoint2name[ord(ch)]};")
        elif style == 1 or (style == 2 and rng.random() < 0.5):
            out.append(rng.choice((f"&#x{ord(ch):X};", f"&#{ord(ch)};")))
        elif style == 3:
            out.append(unicodedata.normalize("NFD", ch))
        else:
            out.append(ch)
    return "".join(out)


def _field_text(rng: Random, code: str, words: list[str], model: str) -> tuple[str, str]:
    """(text, html) of one field: random words plus an isolated Latin model name."""
    picked = rng.sample(words, rng.randint(3, 6))
    joined = ("" if code in _CJK else " ").join(picked)
    style = rng.randrange(4)
    if rng.random() < 0.5:
        return f"{joined} {model}", f"{_encode(rng, joined, style)} <bdi>{escape(model)}</bdi>"
    return joined, _encode(rng, joined, style)


def generate(rng: Random) -> Generated:
    langs = rng.sample(_LANGS, rng.randint(3, 5))
    target_code, target_name = langs[0][0], langs[0][1]
    label, target_class, _ = rng.choice(_FIELDS)
    model = pools.product_name(rng)
    truth = ""
    blocks = []
    for code, _, _, words in langs:
        fields = []
        for _, cls, tag in rng.sample(_FIELDS, len(_FIELDS)):
            text, html = _field_text(rng, code, words.split(), model)
            if code == target_code and cls == target_class:
                truth = unicodedata.normalize("NFC", text)
            fields.append(f'<{tag} class="{cls}">{html}</{tag}>')
        direction = ' dir="rtl"' if code in _RTL else ""
        blocks.append(
            f'<section class="locale" lang="{code}"{direction}>{"".join(fields)}</section>'
        )
    rng.shuffle(blocks)
    switch = "".join(
        f'<li><a hreflang="{code}" href="?hl={code}">{native}</a></li>'
        for code, _, native, _ in langs
    )
    main = (
        f'<ul class="lang-switch">{switch}</ul><h1>{escape(model)}</h1>'
        f'<div class="translations">{"".join(blocks)}</div>'
    )
    page_code = rng.choice([code for code, _, _, _ in langs])
    html = wrap_page(
        rng,
        title=model,
        main_html=main,
        difficulty=ARCHETYPE.difficulty,
        lang=page_code,
        direction="rtl" if page_code in _RTL else None,
    )
    query = (
        f"This product card comes in several languages. What is the {label} in the {target_name} "
        f'version (lang="{target_code}")? Return the text as displayed, with entities decoded.'
    )
    return Generated(html=html, query=query, query_template="i18n_text", truth=truth)


ARCHETYPE = ArchetypeSpec(
    id="i18n_text",
    category=Category.I18N,
    difficulty=Difficulty.MEDIUM,
    solvable=True,
    version=6,
    phase="phase2",
    description="One field of one language version (RTL, CJK, entity-encoded) of a product card.",
    answer_schema="a string, the field's text (compared NFC-normalized, whitespace collapsed)",
    generate=generate,
)
