LLAMA=dict(
    round=[
        dict(begin='<s>[INST] ',
            end=' [/INST]',
            role='HUMAN'),
        dict(begin=' ',
            end=' </s>',
            generate=True,
            role='BOT'),
        ])
QWEN=dict(
    round=[
        dict(begin='<|im_start|>user\n',
            end='<|im_end|>\n',
            role='HUMAN'),
        dict(begin='<|im_start|>assistant\n',
            end='<|im_end|>\n',
            generate=True,
            role='BOT'),
        ])
datasets=[
    dict(abbr='cmmlu_templates',
        eval_cfg=dict(
            evaluator=dict(
                options=[
                    'A',
                    'B',
                    'C',
                    'D',
                    ],
                type='opencompass.datasets.custom.OptionSimAccEvaluator'),
            pred_role='BOT'),
        infer_cfg=dict(
            inferencer=dict(
                type='opencompass.openicl.icl_inferencer.icl_gen_inferencer.GenInferencer'),
            prompt_template=dict(
                template=dict(
                    round=[
                        dict(prompt='Question: {question}\nA. {A}\nB. {B}\nC. {C}\nD. {D}',
                            role='HUMAN'),
                        dict(prompt='Answer: {answer}',
                            role='BOT'),
                        ]),
                type='opencompass.openicl.icl_prompt_template.PromptTemplate'),
            retriever=dict(
                type='opencompass.openicl.icl_retriever.icl_zero_retriever.ZeroRetriever')),
        path='/tmp/tmptx5uvm30/cmmlu_templates.jsonl',
        reader_cfg=dict(
            input_columns=[
                'question',
                'A',
                'B',
                'C',
                'D',
                ],
            output_column='answer'),
        type='opencompass.datasets.custom.CustomDataset'),
    ]
models=[
    dict(abbr='qwen-chat',
        batch_size=4,
        max_out_len=64,
        max_seq_len=2048,
        meta_template=dict(
            round=[
                dict(begin='<|im_start|>user\n',
                    end='<|im_end|>\n',
                    role='HUMAN'),
                dict(begin='<|im_start|>assistant\n',
                    end='<|im_end|>\n',
                    generate=True,
                    role='BOT'),
                ]),
        path='qwen',
        run_cfg=dict(
            num_gpus=0),
        type='templated_model.TemplatedReplay'),
    dict(abbr='llama-chat',
        batch_size=4,
        max_out_len=64,
        max_seq_len=2048,
        meta_template=dict(
            round=[
                dict(begin='<s>[INST] ',
                    end=' [/INST]',
                    role='HUMAN'),
                dict(begin=' ',
                    end=' </s>',
                    generate=True,
                    role='BOT'),
                ]),
        path='llama',
        run_cfg=dict(
            num_gpus=0),
        type='templated_model.TemplatedReplay'),
    ]
work_dir='/work/main/tests/pipeline/harness_files/opencompass_chat_templates/20261125_185550'