"""MMLU's 57 subjects and the category lm-eval groups each under (mmlu_stem, mmlu_humanities, mmlu_social_sciences,
mmlu_other)."""
from __future__ import annotations

STEM, HUMANITIES, SOCIAL, OTHER = "stem", "humanities", "social_sciences", "other"

CATEGORIES = {
    "abstract_algebra": STEM, "anatomy": STEM, "astronomy": STEM, "business_ethics": OTHER,
    "clinical_knowledge": OTHER, "college_biology": STEM, "college_chemistry": STEM,
    "college_computer_science": STEM, "college_mathematics": STEM, "college_medicine": OTHER,
    "college_physics": STEM, "computer_security": STEM, "conceptual_physics": STEM, "econometrics": SOCIAL,
    "electrical_engineering": STEM, "elementary_mathematics": STEM, "formal_logic": HUMANITIES,
    "global_facts": OTHER, "high_school_biology": STEM, "high_school_chemistry": STEM,
    "high_school_computer_science": STEM, "high_school_european_history": HUMANITIES,
    "high_school_geography": SOCIAL, "high_school_government_and_politics": SOCIAL,
    "high_school_macroeconomics": SOCIAL, "high_school_mathematics": STEM, "high_school_microeconomics": SOCIAL,
    "high_school_physics": STEM, "high_school_psychology": SOCIAL, "high_school_statistics": STEM,
    "high_school_us_history": HUMANITIES, "high_school_world_history": HUMANITIES, "human_aging": OTHER,
    "human_sexuality": SOCIAL, "international_law": HUMANITIES, "jurisprudence": HUMANITIES,
    "logical_fallacies": HUMANITIES, "machine_learning": STEM, "management": OTHER, "marketing": OTHER,
    "medical_genetics": OTHER, "miscellaneous": OTHER, "moral_disputes": HUMANITIES,
    "moral_scenarios": HUMANITIES, "nutrition": OTHER, "philosophy": HUMANITIES, "prehistory": HUMANITIES,
    "professional_accounting": OTHER, "professional_law": HUMANITIES, "professional_medicine": OTHER,
    "professional_psychology": SOCIAL, "public_relations": SOCIAL, "security_studies": SOCIAL,
    "sociology": SOCIAL, "us_foreign_policy": SOCIAL, "virology": OTHER, "world_religions": HUMANITIES,
}


def mmlu_group(subject: str) -> str | None:
    """lm-eval's group of an MMLU subject (mmlu_stem, …), or None for a subject MMLU does not have."""
    category = CATEGORIES.get(subject)
    return None if category is None else f"mmlu_{category}"
