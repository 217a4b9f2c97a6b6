"""The words of page chrome in each page language, so one page speaks one language.

Real sites localise their navigation, footer and banners along with the content; a German
page does not carry an English menu. Every language a generator may pass to ``wrap_page``
has an entry here, and an unknown one raises.
"""

from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType


@dataclass(frozen=True)
class ChromeText:
    nav: tuple[str, ...]
    footer_heads: tuple[str, ...]
    rights: str
    cookie: str
    accept: str
    search: str
    go: str
    newsletter: str
    subscribe: str
    related: str
    advert: str


_EN = ChromeText(
    nav=(
        *("Home", "Shop", "Deals", "New arrivals", "Blog", "About", "Careers", "Help"),
        *("Contact", "Stores", "Gift cards", "Account", "Press", "Community", "Pricing", "Docs"),
    ),
    footer_heads=("Company", "Support", "Legal", "Follow us", "Resources"),
    rights="All rights reserved.",
    cookie="We use cookies to improve your experience.",
    accept="Accept",
    search="Search",
    go="Go",
    newsletter="Stay in the loop",
    subscribe="Subscribe",
    related="You may also like",
    advert="Advertisement",
)
_DE = ChromeText(
    nav=(
        *("Startseite", "Shop", "Angebote", "Neuheiten", "Blog", "Über uns", "Karriere"),
        *("Hilfe", "Kontakt", "Filialen", "Gutscheine", "Konto", "Presse", "Preise"),
    ),
    footer_heads=("Unternehmen", "Service", "Rechtliches", "Folgen Sie uns", "Ressourcen"),
    rights="Alle Rechte vorbehalten.",
    cookie="Wir verwenden Cookies, um Ihr Erlebnis zu verbessern.",
    accept="Akzeptieren",
    search="Suchen",
    go="Los",
    newsletter="Bleiben Sie informiert",
    subscribe="Abonnieren",
    related="Das könnte Ihnen auch gefallen",
    advert="Anzeige",
)
_FR = ChromeText(
    nav=(
        *("Accueil", "Boutique", "Promotions", "Nouveautés", "Blog", "À propos", "Carrières"),
        *("Aide", "Contact", "Magasins", "Cartes cadeaux", "Compte", "Presse", "Tarifs"),
    ),
    footer_heads=("Société", "Assistance", "Mentions légales", "Suivez-nous", "Ressources"),
    rights="Tous droits réservés.",
    cookie="Nous utilisons des cookies pour améliorer votre expérience.",
    accept="Accepter",
    search="Rechercher",
    go="OK",
    newsletter="Restez informé",
    subscribe="S’abonner",
    related="Vous aimerez aussi",
    advert="Publicité",
)
_ES = ChromeText(
    nav=(
        *("Inicio", "Tienda", "Ofertas", "Novedades", "Blog", "Nosotros", "Empleo", "Ayuda"),
        *("Contacto", "Tiendas", "Tarjetas regalo", "Cuenta", "Prensa", "Precios"),
    ),
    footer_heads=("Empresa", "Soporte", "Legal", "Síguenos", "Recursos"),
    rights="Todos los derechos reservados.",
    cookie="Usamos cookies para mejorar tu experiencia.",
    accept="Aceptar",
    search="Buscar",
    go="Ir",
    newsletter="Mantente al día",
    subscribe="Suscribirse",
    related="También te puede gustar",
    advert="Publicidad",
)
_JA = ChromeText(
    nav=(
        "ホーム",
        "ショップ",
        "セール",
        "新着",
        "ブログ",
        "会社概要",
        "採用情報",
        "ヘルプ",
        "お問い合わせ",
        "店舗",
    ),
    footer_heads=("会社情報", "サポート", "法的情報", "フォロー", "リソース"),
    rights="無断転載を禁じます。",
    cookie="本サイトは利便性向上のためにクッキーを使用しています。",
    accept="同意する",
    search="検索",
    go="検索",
    newsletter="最新情報をお届けします",
    subscribe="登録",
    related="こちらもおすすめ",
    advert="広告",
)
_ZH = ChromeText(
    nav=("首页", "商店", "优惠", "新品", "博客", "关于我们", "招聘", "帮助", "联系我们", "门店"),
    footer_heads=("公司", "支持", "法律", "关注我们", "资源"),
    rights="版权所有。",
    cookie="我们使用 Cookie 来改善您的体验。",
    accept="接受",
    search="搜索",
    go="搜索",
    newsletter="订阅最新消息",
    subscribe="订阅",
    related="猜你喜欢",
    advert="广告",
)
_AR = ChromeText(
    nav=("الرئيسية", "المتجر", "العروض", "وصل حديثا", "المدونة", "من نحن", "الوظائف", "المساعدة"),
    footer_heads=("الشركة", "الدعم", "قانوني", "تابعنا", "موارد"),
    rights="جميع الحقوق محفوظة.",
    cookie="نستخدم ملفات تعريف الارتباط لتحسين تجربتك.",
    accept="موافق",
    search="بحث",
    go="اذهب",
    newsletter="ابق على اطلاع",
    subscribe="اشترك",
    related="قد يعجبك أيضا",
    advert="إعلان",
)
_HE = ChromeText(
    nav=("דף הבית", "חנות", "מבצעים", "חדש", "בלוג", "אודות", "דרושים", "עזרה", "צור קשר"),
    footer_heads=("החברה", "תמיכה", "מידע משפטי", "עקבו אחרינו", "משאבים"),
    rights="כל הזכויות שמורות.",
    cookie="אנו משתמשים בעוגיות כדי לשפר את החוויה שלך.",
    accept="אישור",
    search="חיפוש",
    go="חפש",
    newsletter="הישארו מעודכנים",
    subscribe="הרשמה",
    related="אולי יעניין אותך",
    advert="פרסומת",
)

CHROME_TEXT: MappingProxyType[str, ChromeText] = MappingProxyType(
    {"en": _EN, "de": _DE, "fr": _FR, "es": _ES, "ja": _JA, "zh": _ZH, "ar": _AR, "he": _HE}
)


def chrome_text(lang: str) -> ChromeText:
    """The chrome words for ``lang``; raises ``KeyError`` naming the known languages."""
    try:
        return CHROME_TEXT[lang]
    except KeyError:
        raise KeyError(f"no chrome text for lang {lang!r}; known: {sorted(CHROME_TEXT)}") from None
