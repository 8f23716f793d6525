"""LiveCodeBench's code-generation prompt as lcb_runner asks a chat model (prompts/code_generation.py,
format_prompt_generation for LMStyle.OpenAIChat): its generic system message, then the question and its format."""
from __future__ import annotations

# PromptConstants.SYSTEM_MESSAGE_GENERIC, FORMATTING_MESSAGE_WITH_STARTER_CODE, FORMATTING_WITHOUT_STARTER_CODE
SYSTEM_MESSAGE = ("You are an expert Python programmer. You will be given a question (problem specification) and will "
                  "generate a correct Python program that matches the specification and passes all tests.")
WITH_STARTER_CODE = ("You will use the following starter code to write the solution to the problem and enclose your "
                     "code within delimiters.")
WITHOUT_STARTER_CODE = ("Read the inputs from stdin solve the problem and write the answer to stdout (do not directly "
                        "test on the sample inputs). Enclose your code within delimiters as follows. Ensure that when "
                        "the python program runs, it reads the inputs, runs the algorithm and writes output to STDOUT.")


def lcb_user_prompt(question_content: str, starter_code: str) -> str:
    """get_generic_question_template_answer: the question, the starter code (or stdin's format) and the answer line."""
    prompt = f"### Question:\n{question_content}\n\n"
    if starter_code:
        prompt += f"### Format: {WITH_STARTER_CODE}\n```python\n{starter_code}\n```\n\n"
    else:
        prompt += f"### Format: {WITHOUT_STARTER_CODE}\n```python\n# YOUR CODE HERE\n```\n\n"
    return prompt + "### Answer: (use the provided format with backticks)\n\n"
