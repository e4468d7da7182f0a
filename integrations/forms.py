from django import forms

from . import vault


class SecretInput(forms.TextInput):
    """A text box that never renders a value back: after an error, the URL the GM pasted
    is not written into the page again."""

    def format_value(self, value):
        return None


class WebhookForm(forms.Form):
    url = forms.CharField(
        label="Webhook URL",
        max_length=vault.MAX_URL,
        strip=True,
        error_messages={"required": "Paste the webhook URL from Discord."},
        widget=SecretInput(
            attrs={
                "autocomplete": "off",
                "spellcheck": "false",
                "inputmode": "url",
                "placeholder": "https://discord.com/api/webhooks/…",
            }
        ),
        help_text="In Discord: the channel's settings → Integrations → Webhooks → New Webhook "
        "→ Copy Webhook URL. It is kept secret: this page never shows it in full again.",
    )

    def clean_url(self) -> vault.WebhookUrl:
        try:
            return vault.parse(self.cleaned_data["url"])
        except vault.InvalidWebhook as error:
            raise forms.ValidationError(str(error)) from None
